DROP INDEX `chat_sessions_tenant_status_idx`;--> statement-breakpoint
CREATE INDEX `chat_sessions_tenant_status_id_idx` ON `chat_sessions` (`tenant_id`,`status`,`id`);