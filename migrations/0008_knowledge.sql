CREATE TABLE `knowledge_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`document_id` text NOT NULL,
	`position` integer NOT NULL,
	`heading` text NOT NULL,
	`text` text NOT NULL,
	`embedding` blob,
	`embedding_model` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `knowledge_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_chunks_tenant_idx` ON `knowledge_chunks` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `knowledge_chunks_document_idx` ON `knowledge_chunks` (`document_id`,`position`);--> statement-breakpoint
CREATE TABLE `knowledge_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`format` text NOT NULL,
	`source_url` text,
	`content` text NOT NULL,
	`bytes` integer NOT NULL,
	`chunk_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_documents_tenant_idx` ON `knowledge_documents` (`tenant_id`,`id`);