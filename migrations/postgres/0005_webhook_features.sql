-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
ALTER TABLE "delivery_attempts" ADD COLUMN "request_headers" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_rules" ADD COLUMN "previous_secret" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_rules" ADD COLUMN "previous_secret_until" bigint;--> statement-breakpoint
ALTER TABLE "webhook_rules" ADD COLUMN "rate_limit_per_s" integer;
