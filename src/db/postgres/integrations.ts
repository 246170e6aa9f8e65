import type { PaymentEventRow, TenantSecretRow } from "../rows.ts";
import type { IntegrationQueries } from "../store-integrations.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { paymentEvents, tenantSecrets } from "./schema.ts";

// The statements of src/db/sqlite/integrations.ts on PostgreSQL.
export function pgIntegrations(db: PgExec): IntegrationQueries {
  const secrets = `SELECT ${pgColumns(tenantSecrets)} FROM tenant_secrets WHERE tenant_id = $1`;
  const paymentEvent = `SELECT ${pgColumns(paymentEvents)} FROM payment_events WHERE provider = $1 AND provider_event_id = $2 AND tenant_id = $3`;
  return {
    findTenantSecrets: (tenantId) => db.get<TenantSecretRow>(secrets, [tenantId]),
    upsertPaymentSecret: async (tenantId, secret, updatedAt) => {
      await db.run(
        `INSERT INTO tenant_secrets (tenant_id, payment_secret, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id) DO UPDATE SET payment_secret = excluded.payment_secret, updated_at = excluded.updated_at`,
        [tenantId, secret, updatedAt],
      );
    },
    upsertWhatsappCredentials: async (tenantId, c, updatedAt) => {
      await db.run(
        `INSERT INTO tenant_secrets (tenant_id, whatsapp_verify_token, whatsapp_app_secret, whatsapp_access_token, whatsapp_phone_number_id, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id) DO UPDATE SET whatsapp_verify_token = excluded.whatsapp_verify_token, whatsapp_app_secret = excluded.whatsapp_app_secret,
           whatsapp_access_token = excluded.whatsapp_access_token, whatsapp_phone_number_id = excluded.whatsapp_phone_number_id, updated_at = excluded.updated_at`,
        [tenantId, c.verifyToken, c.appSecret, c.accessToken, c.phoneNumberId, updatedAt],
      );
    },
    findPaymentEvent: (provider, providerEventId, tenantId) => db.get<PaymentEventRow>(paymentEvent, [provider, providerEventId, tenantId]),
    insertPaymentEvent: async (row) => {
      await db.run("INSERT INTO payment_events (provider, provider_event_id, tenant_id, event_id, received_at) VALUES ($1, $2, $3, $4, $5)", [
        row.provider,
        row.providerEventId,
        row.tenantId,
        row.eventId,
        row.receivedAt,
      ]);
    },
    purgePaymentEventsBefore: (cutoffMs) => db.run("DELETE FROM payment_events WHERE received_at <= $1", [cutoffMs]),
    hasWhatsappMessage: async (tenantId, messageId) =>
      (await db.get<{ one: number }>("SELECT 1 AS one FROM whatsapp_messages WHERE tenant_id = $1 AND message_id = $2", [tenantId, messageId])) !== null,
    // SQLite's INSERT OR IGNORE: a message id seen before changes nothing.
    insertWhatsappMessage: async (tenantId, messageId, receivedAt) =>
      (await db.run("INSERT INTO whatsapp_messages (tenant_id, message_id, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
        tenantId,
        messageId,
        receivedAt,
      ])) > 0,
    purgeWhatsappMessagesBefore: (cutoffMs) => db.run("DELETE FROM whatsapp_messages WHERE received_at <= $1", [cutoffMs]),
  };
}
