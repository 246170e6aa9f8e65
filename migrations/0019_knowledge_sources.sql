-- ON DELETE cascade on source_id added by hand: drizzle-kit leaves it out of an added column's reference.
CREATE TABLE `knowledge_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`sync_interval_ms` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `knowledge_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`title` text,
	`status` text NOT NULL,
	`last_error` text,
	`etag` text,
	`last_modified` text,
	`content_hash` text,
	`last_fetched_at` integer,
	`last_changed_at` integer,
	`next_sync_at` integer,
	`report` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_sources_tenant_idx` ON `knowledge_sources` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `knowledge_sources_due_idx` ON `knowledge_sources` (`next_sync_at`);--> statement-breakpoint
ALTER TABLE `knowledge_documents` ADD `source_id` text REFERENCES knowledge_sources(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `knowledge_documents` ADD `etag` text;--> statement-breakpoint
ALTER TABLE `knowledge_documents` ADD `last_modified` text;--> statement-breakpoint
ALTER TABLE `knowledge_documents` ADD `content_hash` text;--> statement-breakpoint
CREATE INDEX `knowledge_documents_source_idx` ON `knowledge_documents` (`source_id`);