CREATE TABLE `handoffs` (
	`session_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`handoff_at` integer NOT NULL,
	`within_business_hours` integer NOT NULL,
	`first_reply_at` integer,
	`seen_message_id` text,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `handoffs_tenant_idx` ON `handoffs` (`tenant_id`,`handoff_at`);--> statement-breakpoint
CREATE TABLE `session_ratings` (
	`session_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`score` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_ratings_tenant_idx` ON `session_ratings` (`tenant_id`,`created_at`);