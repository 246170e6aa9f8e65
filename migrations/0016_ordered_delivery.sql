ALTER TABLE `deliveries` ADD `stream_key` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `waits_for` text;--> statement-breakpoint
CREATE INDEX `deliveries_stream_idx` ON `deliveries` (`stream_key`,`status`) WHERE stream_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deliveries_waits_for_idx` ON `deliveries` (`waits_for`) WHERE waits_for IS NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_rules` ADD `ordering` text DEFAULT 'none' NOT NULL;