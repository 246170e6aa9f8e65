CREATE TABLE `appointments` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`session_id` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`timezone` text NOT NULL,
	`name` text,
	`phone` text,
	`email` text,
	`confidence` real NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_slot_idx` ON `appointments` (`tenant_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `appointments_tenant_idx` ON `appointments` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `chat_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`role` text NOT NULL,
	`text` text NOT NULL,
	`quick_replies` text,
	`confidence` real,
	`author_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_messages_session_idx` ON `chat_messages` (`session_id`,`id`);--> statement-breakpoint
CREATE TABLE `chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`channel` text NOT NULL,
	`status` text NOT NULL,
	`state` text NOT NULL,
	`visitor_ref` text,
	`origin` text,
	`message_count` integer DEFAULT 0 NOT NULL,
	`handoff_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_sessions_tenant_status_idx` ON `chat_sessions` (`tenant_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `chat_sessions_visitor_idx` ON `chat_sessions` (`tenant_id`,`channel`,`visitor_ref`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`chatbot_id` text NOT NULL,
	`session_id` text NOT NULL,
	`name` text NOT NULL,
	`phone` text NOT NULL,
	`email` text NOT NULL,
	`interest` text NOT NULL,
	`source` text NOT NULL,
	`confidence` real NOT NULL,
	`captured_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `leads_tenant_idx` ON `leads` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `usage_counters` (
	`tenant_id` text NOT NULL,
	`period` text NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`threshold_notified_at` integer,
	PRIMARY KEY(`tenant_id`, `period`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
