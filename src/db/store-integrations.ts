import type { PaymentEventRow, TenantSecretRow } from "./rows.ts";

export interface WhatsappCredentials {
  verifyToken: string;
  appSecret: string;
  accessToken: string;
  phoneNumberId: string;
}

/** Inbound payment and WhatsApp hooks (src/integrations/): the tenant's secrets and the de-duplication ids. */
export interface IntegrationQueries {
  /** The tenant's secrets row; rows cascade with their tenant, so null means "no such tenant" or "nothing set" alike. */
  findTenantSecrets(tenantId: string): Promise<TenantSecretRow | null>;
  upsertPaymentSecret(tenantId: string, secret: string, updatedAt: number): Promise<void>;
  upsertWhatsappCredentials(tenantId: string, credentials: WhatsappCredentials, updatedAt: number): Promise<void>;
  findPaymentEvent(provider: string, providerEventId: string, tenantId: string): Promise<PaymentEventRow | null>;
  insertPaymentEvent(row: PaymentEventRow): Promise<void>;
  /** Forgets provider event ids received at or before `cutoffMs`; how many went. */
  purgePaymentEventsBefore(cutoffMs: number): Promise<number>;
  hasWhatsappMessage(tenantId: string, messageId: string): Promise<boolean>;
  /** Records a WhatsApp message id; false when it was recorded already. */
  insertWhatsappMessage(tenantId: string, messageId: string, receivedAt: number): Promise<boolean>;
  purgeWhatsappMessagesBefore(cutoffMs: number): Promise<number>;
}
