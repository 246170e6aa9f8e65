-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
CREATE TABLE "knowledge_settings" (
	"tenant_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"sync_interval_ms" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_sources" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"url" text COLLATE "C",
	"title" text COLLATE "C",
	"status" text COLLATE "C" NOT NULL,
	"last_error" text COLLATE "C",
	"etag" text COLLATE "C",
	"last_modified" text COLLATE "C",
	"content_hash" text COLLATE "C",
	"last_fetched_at" bigint,
	"last_changed_at" bigint,
	"next_sync_at" bigint,
	"report" text COLLATE "C",
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "source_id" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "etag" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "last_modified" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "content_hash" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "knowledge_settings" ADD CONSTRAINT "knowledge_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_sources_tenant_idx" ON "knowledge_sources" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "knowledge_sources_due_idx" ON "knowledge_sources" USING btree ("next_sync_at");--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_source_id_knowledge_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_documents_source_idx" ON "knowledge_documents" USING btree ("source_id");