import { paymentEvents, tenantSecrets } from "../schema.ts";
import { insertRow, one, type Ops, write } from "../statements.ts";
import type { IntegrationQueries } from "../store-integrations.ts";

export const INTEGRATION_OPS: Ops<IntegrationQueries> = {
  findTenantSecrets: one(
    (d) => `SELECT ${d.columns(tenantSecrets)} FROM tenant_secrets WHERE tenant_id = $1`,
    (tenantId) => [tenantId],
  ),
  upsertPaymentSecret: write(
    `INSERT INTO tenant_secrets (tenant_id, payment_secret, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id) DO UPDATE SET payment_secret = excluded.payment_secret, updated_at = excluded.updated_at`,
    (tenantId, secret, updatedAt) => [tenantId, secret, updatedAt],
  ),
  upsertWhatsappCredentials: write(
    `INSERT INTO tenant_secrets (tenant_id, whatsapp_verify_token, whatsapp_app_secret, whatsapp_access_token, whatsapp_phone_number_id, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id) DO UPDATE SET whatsapp_verify_token = excluded.whatsapp_verify_token, whatsapp_app_secret = excluded.whatsapp_app_secret,
       whatsapp_access_token = excluded.whatsapp_access_token, whatsapp_phone_number_id = excluded.whatsapp_phone_number_id, updated_at = excluded.updated_at`,
    (tenantId, c, updatedAt) => [tenantId, c.verifyToken, c.appSecret, c.accessToken, c.phoneNumberId, updatedAt],
  ),
  findPaymentEvent: one(
    (d) =>
      `SELECT ${d.columns(paymentEvents)} FROM payment_events WHERE provider = $1 AND provider_event_id = $2 AND tenant_id = $3`,
    (provider, providerEventId, tenantId) => [provider, providerEventId, tenantId],
  ),
  insertPaymentEvent: insertRow(paymentEvents),
  purgePaymentEventsBefore: write("DELETE FROM payment_events WHERE received_at <= $1", (cutoffMs) => [cutoffMs]),
  hasWhatsappMessage: one(
    "SELECT 1 AS one FROM whatsapp_messages WHERE tenant_id = $1 AND message_id = $2",
    (tenantId, messageId) => [tenantId, messageId],
    (row) => row !== null,
  ),
  insertWhatsappMessage: write(
    "INSERT INTO whatsapp_messages (tenant_id, message_id, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    (tenantId, messageId, receivedAt) => [tenantId, messageId, receivedAt],
    (changes) => changes > 0,
  ),
  purgeWhatsappMessagesBefore: write("DELETE FROM whatsapp_messages WHERE received_at <= $1", (cutoffMs) => [cutoffMs]),
};
