ALTER TABLE `delivery_attempts` ADD `request_headers` text;--> statement-breakpoint
ALTER TABLE `webhook_rules` ADD `previous_secret` text;--> statement-breakpoint
ALTER TABLE `webhook_rules` ADD `previous_secret_until` integer;--> statement-breakpoint
ALTER TABLE `webhook_rules` ADD `rate_limit_per_s` integer;