DROP INDEX `dead_letters_tenant_idx`;--> statement-breakpoint
CREATE INDEX `dead_letters_tenant_event_idx` ON `dead_letters` (`tenant_id`,`event`,`id`);--> statement-breakpoint
CREATE INDEX `dead_letters_tenant_idx` ON `dead_letters` (`tenant_id`,`id`);--> statement-breakpoint
DROP INDEX `chat_sessions_visitor_idx`;--> statement-breakpoint
CREATE INDEX `chat_sessions_tenant_id_idx` ON `chat_sessions` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `chat_sessions_tenant_created_idx` ON `chat_sessions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `chat_sessions_visitor_idx` ON `chat_sessions` (`tenant_id`,`channel`,`visitor_ref`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_tenant_status_idx` ON `deliveries` (`tenant_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_tenant_event_idx` ON `deliveries` (`tenant_id`,`event`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_tenant_rule_idx` ON `deliveries` (`tenant_id`,`rule_id`,`id`);--> statement-breakpoint
CREATE INDEX `appointments_tenant_created_idx` ON `appointments` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `leads_tenant_captured_idx` ON `leads` (`tenant_id`,`captured_at`);--> statement-breakpoint
CREATE INDEX `payment_events_received_idx` ON `payment_events` (`received_at`);