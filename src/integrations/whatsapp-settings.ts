import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { invalidField } from "../lib/validate.ts";
import { requireTenantSync } from "../tenants/find-tenant.ts";

/** What a tenant configures to connect one WhatsApp Business phone number. */
export interface WhatsappSettingsInput {
  /** Any string the tenant chooses and also types into Meta's dashboard for the GET handshake. */
  verify_token: string;
  /** The Meta app's secret: Meta signs every webhook POST with it (X-Hub-Signature-256). */
  app_secret: string;
  /** A (system user) access token allowed to send messages from the number. */
  access_token: string;
  /** The Cloud API id of the business phone number (digits), not the phone number itself. */
  phone_number_id: string;
}

export interface WhatsappSettings {
  verifyToken: string;
  appSecret: string;
  accessToken: string;
  phoneNumberId: string;
}

/** Which settings are stored; the secrets themselves are never read back out. */
export interface WhatsappSettingsStatus {
  configured: boolean;
  verify_token_set: boolean;
  app_secret_set: boolean;
  access_token_set: boolean;
  phone_number_id: string | null;
  callback_url: string;
}

const LIMITS = {
  verify_token: { min: 8, max: 256 },
  app_secret: { min: 16, max: 256 },
  access_token: { min: 16, max: 2048 },
} as const;

// The id ends up in the path of the send URL, so it is held to what Meta issues: digits.
const PHONE_NUMBER_ID_PATTERN = /^\d{1,32}$/;

const statements = preparedFor((sqlite) => ({
  upsert: sqlite.prepare(
    `INSERT INTO tenant_secrets (tenant_id, whatsapp_verify_token, whatsapp_app_secret, whatsapp_access_token, whatsapp_phone_number_id, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(tenant_id) DO UPDATE SET whatsapp_verify_token = excluded.whatsapp_verify_token, whatsapp_app_secret = excluded.whatsapp_app_secret,
       whatsapp_access_token = excluded.whatsapp_access_token, whatsapp_phone_number_id = excluded.whatsapp_phone_number_id, updated_at = excluded.updated_at`,
  ),
  // Rows cascade with their tenant, so one look-up answers "no such tenant" and "not
  // configured" alike; the hook must not tell them apart.
  settings: sqlite.prepare<{ verify_token: string; app_secret: string; access_token: string; phone_number_id: string }, [string]>(
    `SELECT whatsapp_verify_token AS verify_token, whatsapp_app_secret AS app_secret, whatsapp_access_token AS access_token, whatsapp_phone_number_id AS phone_number_id
     FROM tenant_secrets WHERE tenant_id = ? AND whatsapp_verify_token IS NOT NULL AND whatsapp_app_secret IS NOT NULL
       AND whatsapp_access_token IS NOT NULL AND whatsapp_phone_number_id IS NOT NULL`,
  ),
  status: sqlite.prepare<{ verify_token_set: number; app_secret_set: number; access_token_set: number; phone_number_id: string | null }, [string]>(
    `SELECT whatsapp_verify_token IS NOT NULL AS verify_token_set, whatsapp_app_secret IS NOT NULL AS app_secret_set,
       whatsapp_access_token IS NOT NULL AS access_token_set, whatsapp_phone_number_id AS phone_number_id
     FROM tenant_secrets WHERE tenant_id = ?`,
  ),
}));

function checkLength(field: keyof typeof LIMITS, value: string): string {
  const { min, max } = LIMITS[field];
  if (value.length < min || value.length > max || /\s/.test(value)) throw invalidField(field, `must be ${min} to ${max} characters without spaces`);
  return value;
}

/** Stores (or replaces) all four WhatsApp settings of a tenant at once. */
export function setWhatsappSettings(deps: Deps, tenantId: string, input: WhatsappSettingsInput): void {
  const verifyToken = checkLength("verify_token", input.verify_token.trim());
  const appSecret = checkLength("app_secret", input.app_secret.trim());
  const accessToken = checkLength("access_token", input.access_token.trim());
  const phoneNumberId = input.phone_number_id.trim();
  if (!PHONE_NUMBER_ID_PATTERN.test(phoneNumberId)) throw invalidField("phone_number_id", "must be the Cloud API phone number id: 1 to 32 digits");
  writeTransaction(deps.sqlite, () => {
    requireTenantSync(deps, tenantId);
    statements(deps.sqlite).upsert.run(tenantId, verifyToken, appSecret, accessToken, phoneNumberId, deps.clock.now());
  });
}

/** The tenant's complete WhatsApp settings, or null for an unknown or unconfigured tenant. */
export function findWhatsappSettings(deps: Pick<Deps, "sqlite">, tenantId: string): WhatsappSettings | null {
  const row = statements(deps.sqlite).settings.get(tenantId);
  return row ? { verifyToken: row.verify_token, appSecret: row.app_secret, accessToken: row.access_token, phoneNumberId: row.phone_number_id } : null;
}

/** The URL to paste into Meta's dashboard as the callback URL. */
export const whatsappCallbackUrl = (deps: Pick<Deps, "config">, tenantId: string): string => `${deps.config.publicUrl}/api/v1/hooks/whatsapp/${tenantId}`;

export function getWhatsappSettingsStatus(deps: Deps, tenantId: string): WhatsappSettingsStatus {
  const row = statements(deps.sqlite).status.get(tenantId);
  return {
    configured: findWhatsappSettings(deps, tenantId) !== null,
    verify_token_set: Boolean(row?.verify_token_set),
    app_secret_set: Boolean(row?.app_secret_set),
    access_token_set: Boolean(row?.access_token_set),
    phone_number_id: row?.phone_number_id ?? null,
    callback_url: whatsappCallbackUrl(deps, tenantId),
  };
}
