CREATE INDEX `deliveries_event_idx` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_completed_idx` ON `deliveries` (`completed_at`) WHERE completed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `events_occurred_idx` ON `events` (`occurred_at`);