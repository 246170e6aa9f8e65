CREATE TABLE "canned_replies" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"shortcut" text COLLATE "C" NOT NULL,
	"text" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_reads" (
	"session_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"last_read_id" text COLLATE "C" NOT NULL,
	"read_at" bigint NOT NULL,
	CONSTRAINT "inbox_reads_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "session_desk" (
	"session_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"page_url" text COLLATE "C",
	"handoff_at" bigint,
	"assigned_to" text COLLATE "C",
	"assigned_at" bigint
);
--> statement-breakpoint
ALTER TABLE "canned_replies" ADD CONSTRAINT "canned_replies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_reads" ADD CONSTRAINT "inbox_reads_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_reads" ADD CONSTRAINT "inbox_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_desk" ADD CONSTRAINT "session_desk_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_desk" ADD CONSTRAINT "session_desk_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_desk" ADD CONSTRAINT "session_desk_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "canned_replies_shortcut_idx" ON "canned_replies" USING btree ("tenant_id","shortcut");--> statement-breakpoint
CREATE INDEX "session_desk_assigned_idx" ON "session_desk" USING btree ("tenant_id","assigned_to");--> statement-breakpoint
CREATE INDEX "appointments_session_idx" ON "appointments" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "leads_session_idx" ON "leads" USING btree ("session_id");--> statement-breakpoint
CREATE FUNCTION "parley_search_terms"("tenant_id" text, "body" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT array_to_tsvector(ARRAY(
		SELECT lower(regexp_replace(substr($1, 5), '[^A-Za-z0-9]', '', 'g')) || t.lexeme
		FROM unnest(to_tsvector('simple', regexp_replace($2, '[[:space:][:punct:]]+', ' ', 'g'))) AS t))
$$;--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("parley_search_terms"("tenant_id", "text")) WHERE "role" <> 'bot';--> statement-breakpoint
CREATE INDEX "leads_search_idx" ON "leads" USING gin ("parley_search_terms"("tenant_id", "name" || ' ' || "email" || ' ' || "phone"));
--> statement-breakpoint
INSERT INTO "session_desk" ("session_id", "tenant_id", "handoff_at") SELECT "id", "tenant_id", "updated_at" FROM "chat_sessions" WHERE "status" = 'handoff';
