CREATE TABLE `live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`session_id` text NOT NULL,
	`kind` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `live_events_tenant_idx` ON `live_events` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `live_events_session_idx` ON `live_events` (`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `live_events_created_idx` ON `live_events` (`created_at`);