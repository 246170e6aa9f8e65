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
CREATE INDEX `chatbot_tests_tenant_idx` ON `chatbot_tests` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `unanswered_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`session_id` text NOT NULL,
	`question` text NOT NULL,
	`language` text,
	`engine` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `unanswered_questions_open_idx` ON `unanswered_questions` (`tenant_id`,`resolved_at`,`id`);--> statement-breakpoint
CREATE INDEX `unanswered_questions_session_idx` ON `unanswered_questions` (`session_id`);