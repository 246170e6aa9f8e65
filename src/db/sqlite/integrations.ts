import type { Database } from "bun:sqlite";
import type { PaymentEventRow, TenantSecretRow } from "../rows.ts";
import { paymentEvents, tenantSecrets } from "../schema.ts";
import type { IntegrationQueries } from "../store-integrations.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

export function sqliteIntegrations(sqlite: Database): SyncOf<IntegrationQueries> {
  const secrets = sqlite.prepare<TenantSecretRow, [string]>(`SELECT ${selectColumns(tenantSecrets)} FROM tenant_secrets WHERE tenant_id = ?`);
  const upsertPayment = sqlite.prepare(
    `INSERT INTO tenant_secrets (tenant_id, payment_secret, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(tenant_id) DO UPDATE SET payment_secret = excluded.payment_secret, updated_at = excluded.updated_at`,
  );
  const upsertWhatsapp = sqlite.prepare(
    `INSERT INTO tenant_secrets (tenant_id, whatsapp_verify_token, whatsapp_app_secret, whatsapp_access_token, whatsapp_phone_number_id, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(tenant_id) DO UPDATE SET whatsapp_verify_token = excluded.whatsapp_verify_token, whatsapp_app_secret = excluded.whatsapp_app_secret,
       whatsapp_access_token = excluded.whatsapp_access_token, whatsapp_phone_number_id = excluded.whatsapp_phone_number_id, updated_at = excluded.updated_at`,
  );
  const paymentEvent = sqlite.prepare<PaymentEventRow, [string, string, string]>(
    `SELECT ${selectColumns(paymentEvents)} FROM payment_events WHERE provider = ? AND provider_event_id = ? AND tenant_id = ?`,
  );
  const insertPaymentEvent = sqlite.prepare("INSERT INTO payment_events (provider, provider_event_id, tenant_id, event_id, received_at) VALUES (?, ?, ?, ?, ?)");
  const purgePayments = sqlite.prepare("DELETE FROM payment_events WHERE received_at <= ?");
  const seen = sqlite.prepare<{ one: number }, [string, string]>("SELECT 1 AS one FROM whatsapp_messages WHERE tenant_id = ? AND message_id = ?");
  const markSeen = sqlite.prepare("INSERT OR IGNORE INTO whatsapp_messages (tenant_id, message_id, received_at) VALUES (?, ?, ?)");
  const purgeWhatsapp = sqlite.prepare("DELETE FROM whatsapp_messages WHERE received_at <= ?");
  return {
    findTenantSecrets: (tenantId) => secrets.get(tenantId),
    upsertPaymentSecret: (tenantId, secret, updatedAt) => {
      upsertPayment.run(tenantId, secret, updatedAt);
    },
    upsertWhatsappCredentials: (tenantId, c, updatedAt) => {
      upsertWhatsapp.run(tenantId, c.verifyToken, c.appSecret, c.accessToken, c.phoneNumberId, updatedAt);
    },
    findPaymentEvent: (provider, providerEventId, tenantId) => paymentEvent.get(provider, providerEventId, tenantId),
    insertPaymentEvent: (row) => {
      insertPaymentEvent.run(row.provider, row.providerEventId, row.tenantId, row.eventId, row.receivedAt);
    },
    purgePaymentEventsBefore: (cutoffMs) => purgePayments.run(cutoffMs).changes,
    hasWhatsappMessage: (tenantId, messageId) => seen.get(tenantId, messageId) !== null,
    insertWhatsappMessage: (tenantId, messageId, receivedAt) => markSeen.run(tenantId, messageId, receivedAt).changes > 0,
    purgeWhatsappMessagesBefore: (cutoffMs) => purgeWhatsapp.run(cutoffMs).changes,
  };
}
