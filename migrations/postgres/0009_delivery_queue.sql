DROP INDEX "deliveries_tenant_rule_idx";--> statement-breakpoint
DROP INDEX "deliveries_due_idx";--> statement-breakpoint
DROP INDEX "deliveries_rule_idx";--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_rule_idx" ON "deliveries" USING btree ("rule_id","id");--> statement-breakpoint
-- Hand-written (drizzle-kit has no storage parameters): room on each page for a leased row's new
-- version beside the old one, so a claim's lease is a HOT update (src/db/postgres/delivery-queue.ts).
ALTER TABLE "deliveries" SET (fillfactor = 50);
