CREATE TABLE `dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`rule_id` text,
	`event` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`dead_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dead_letters_delivery_idx` ON `dead_letters` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `dead_letters_tenant_idx` ON `dead_letters` (`tenant_id`,`dead_at`);--> statement-breakpoint
CREATE INDEX `dead_letters_expiry_idx` ON `dead_letters` (`expires_at`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`rule_id` text,
	`event` text NOT NULL,
	`url` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`cycle` integer DEFAULT 1 NOT NULL,
	`next_attempt_at` integer,
	`lease_token` text,
	`last_status_code` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rule_id`) REFERENCES `webhook_rules`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `deliveries_tenant_idx` ON `deliveries` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_rule_idx` ON `deliveries` (`rule_id`);--> statement-breakpoint
CREATE TABLE `delivery_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`cycle` integer NOT NULL,
	`attempt` integer NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` real NOT NULL,
	`ok` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`response_excerpt` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_delivery_idx` ON `delivery_attempts` (`delivery_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`event` text NOT NULL,
	`data` text NOT NULL,
	`confidence` real,
	`occurred_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_tenant_idx` ON `events` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`event` text NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`min_confidence` real,
	`active` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_rules_tenant_event_url_idx` ON `webhook_rules` (`tenant_id`,`event`,`url`);--> statement-breakpoint
CREATE INDEX `webhook_rules_match_idx` ON `webhook_rules` (`tenant_id`,`event`,`active`);