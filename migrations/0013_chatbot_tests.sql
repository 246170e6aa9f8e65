CREATE TABLE `chatbot_test_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`passed` integer NOT NULL,
	`failed` integer NOT NULL,
	`results` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_test_runs_tenant_idx` ON `chatbot_test_runs` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `chatbot_tests` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`turns` text NOT NULL,
	`language` text,
	`expectation` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbot_tests_tenant_idx` ON `chatbot_tests` (`tenant_id`,`id`);