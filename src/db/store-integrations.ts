import type { PaymentEventRow, TenantSecretRow } from "./rows.ts";

export interface WhatsappCredentials {
  verifyToken: string;
  appSecret: string;
  accessToken: string;
  phoneNumberId: string;
}

/** Inbound payment and WhatsApp hooks (src/integrations/): the tenant's secrets and the de-duplication ids. */
export interface IntegrationQueries {
  /** null for "no such tenant" and "nothing set" alike: rows cascade with their tenant. */
  findTenantSecrets(tenantId: string): Promise<TenantSecretRow | null>;
  upsertPaymentSecret(tenantId: string, secret: string, updatedAt: number): Promise<void>;
  upsertWhatsappCredentials(tenantId: string, credentials: WhatsappCredentials, updatedAt: number): Promise<void>;
  findPaymentEvent(provider: string, providerEventId: string, tenantId: string): Promise<PaymentEventRow | null>;
  insertPaymentEvent(row: PaymentEventRow): Promise<void>;
  purgePaymentEventsBefore(cutoffMs: number): Promise<number>;
  hasWhatsappMessage(tenantId: string, messageId: string): Promise<boolean>;
  /** false when it was recorded already. */
  insertWhatsappMessage(tenantId: string, messageId: string, receivedAt: number): Promise<boolean>;
  purgeWhatsappMessagesBefore(cutoffMs: number): Promise<number>;
}
