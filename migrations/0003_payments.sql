CREATE TABLE `payment_events` (
	`provider` text NOT NULL,
	`provider_event_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `provider_event_id`, `tenant_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_events_tenant_idx` ON `payment_events` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `tenant_secrets` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`payment_secret` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
