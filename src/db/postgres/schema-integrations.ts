import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-integrations.ts (see ./schema.ts).

export const tenantSecrets = pgTable("tenant_secrets", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  paymentSecret: text("payment_secret"),
  whatsappVerifyToken: text("whatsapp_verify_token"),
  whatsappAppSecret: text("whatsapp_app_secret"),
  whatsappAccessToken: text("whatsapp_access_token"),
  whatsappPhoneNumberId: text("whatsapp_phone_number_id"),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    providerEventId: text("provider_event_id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.providerEventId, table.tenantId] }),
    index("payment_events_tenant_idx").on(table.tenantId),
    index("payment_events_received_idx").on(table.receivedAt),
  ],
);

export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.messageId] }),
    index("whatsapp_messages_received_idx").on(table.receivedAt),
  ],
);
