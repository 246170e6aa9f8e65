CREATE TABLE `whatsapp_messages` (
	`tenant_id` text NOT NULL,
	`message_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `message_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `whatsapp_messages_received_idx` ON `whatsapp_messages` (`received_at`);--> statement-breakpoint
ALTER TABLE `tenant_secrets` ADD `whatsapp_verify_token` text;--> statement-breakpoint
ALTER TABLE `tenant_secrets` ADD `whatsapp_app_secret` text;--> statement-breakpoint
ALTER TABLE `tenant_secrets` ADD `whatsapp_access_token` text;--> statement-breakpoint
ALTER TABLE `tenant_secrets` ADD `whatsapp_phone_number_id` text;