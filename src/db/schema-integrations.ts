import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantIdColumn } from "./schema.ts";

/**
 * Per-tenant secrets for inbound integrations, in clear because verifying HMACs and replying need
 * them (like a webhook rule's secret); never returned. The four WhatsApp columns are set together.
 */
export const tenantSecrets = sqliteTable("tenant_secrets", {
  tenantId: tenantIdColumn().primaryKey(),
  paymentSecret: text("payment_secret"),
  whatsappVerifyToken: text("whatsapp_verify_token"),
  whatsappAppSecret: text("whatsapp_app_secret"),
  whatsappAccessToken: text("whatsapp_access_token"),
  whatsappPhoneNumberId: text("whatsapp_phone_number_id"),
  updatedAt: integer("updated_at").notNull(),
});

/** Providers redeliver an event until they see a 2xx: the primary key makes a second copy a no-op. */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    providerEventId: text("provider_event_id").notNull(),
    tenantId: tenantIdColumn(),
    /** The Parley event (`evt_…`) the provider event became. */
    eventId: text("event_id").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  // The expiry sweep (every 10 s) deletes by time.
  (table) => [
    primaryKey({ columns: [table.provider, table.providerEventId, table.tenantId] }),
    index("payment_events_tenant_idx").on(table.tenantId),
    index("payment_events_received_idx").on(table.receivedAt),
  ],
);

/** Meta redelivers a webhook until (and sometimes after) a 200: the key keeps a message from being answered twice. */
export const whatsappMessages = sqliteTable(
  "whatsapp_messages",
  {
    tenantId: tenantIdColumn(),
    /** Meta's `wamid.…` id of the inbound message. */
    messageId: text("message_id").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.messageId] }),
    index("whatsapp_messages_received_idx").on(table.receivedAt),
  ],
);
