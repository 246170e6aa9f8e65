import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenants } from "./schema.ts";

/**
 * Per-tenant secrets for inbound integrations. The payment secret is kept in clear because
 * verifying a provider's HMAC needs it (like a webhook rule's secret); it is never returned.
 */
export const tenantSecrets = sqliteTable("tenant_secrets", {
  tenantId: text("tenant_id").primaryKey().references(() => tenants.id, { onDelete: "cascade" }),
  paymentSecret: text("payment_secret"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * One row per provider event accepted for a tenant. Providers retry until they see a 2xx and
 * may deliver the same event more than once; the primary key makes the second copy a no-op.
 */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    providerEventId: text("provider_event_id").notNull(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    /** The Parley event (`evt_…`) the provider event became. */
    eventId: text("event_id").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.providerEventId, table.tenantId] }), index("payment_events_tenant_idx").on(table.tenantId)],
);
