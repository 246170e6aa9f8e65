import type { Deps } from "../deps.ts";
import { notFound } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";

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

function checkLength(field: keyof typeof LIMITS, value: string): string {
  const { min, max } = LIMITS[field];
  if (value.length < min || value.length > max || /\s/.test(value))
    throw invalidField(field, `must be ${min} to ${max} characters without spaces`);
  return value;
}

/** Stores (or replaces) all four WhatsApp settings of a tenant at once. */
export async function setWhatsappSettings(deps: Deps, tenantId: string, input: WhatsappSettingsInput): Promise<void> {
  const verifyToken = checkLength("verify_token", input.verify_token.trim());
  const appSecret = checkLength("app_secret", input.app_secret.trim());
  const accessToken = checkLength("access_token", input.access_token.trim());
  const phoneNumberId = input.phone_number_id.trim();
  if (!PHONE_NUMBER_ID_PATTERN.test(phoneNumberId))
    throw invalidField("phone_number_id", "must be the Cloud API phone number id: 1 to 32 digits");
  await deps.store.transaction(async (tx) => {
    if (!(await tx.tenants.findTenantPlan(tenantId))) throw notFound("tenant");
    await tx.integrations.upsertWhatsappCredentials(
      tenantId,
      { verifyToken, appSecret, accessToken, phoneNumberId },
      deps.clock.now(),
    );
  });
}

/**
 * The tenant's complete WhatsApp settings, or null for an unknown or unconfigured tenant: rows
 * cascade with their tenant, so one look-up answers both alike, and the hook must not tell
 * them apart.
 */
export async function findWhatsappSettings(
  deps: Pick<Deps, "store">,
  tenantId: string,
): Promise<WhatsappSettings | null> {
  const row = await deps.store.integrations.findTenantSecrets(tenantId);
  if (!row?.whatsappVerifyToken || !row.whatsappAppSecret || !row.whatsappAccessToken || !row.whatsappPhoneNumberId)
    return null;
  return {
    verifyToken: row.whatsappVerifyToken,
    appSecret: row.whatsappAppSecret,
    accessToken: row.whatsappAccessToken,
    phoneNumberId: row.whatsappPhoneNumberId,
  };
}

/** The URL to paste into Meta's dashboard as the callback URL. */
export const whatsappCallbackUrl = (deps: Pick<Deps, "config">, tenantId: string): string =>
  `${deps.config.publicUrl}/api/v1/hooks/whatsapp/${tenantId}`;

export async function getWhatsappSettingsStatus(deps: Deps, tenantId: string): Promise<WhatsappSettingsStatus> {
  const row = await deps.store.integrations.findTenantSecrets(tenantId);
  return {
    configured: (await findWhatsappSettings(deps, tenantId)) !== null,
    verify_token_set: row?.whatsappVerifyToken != null,
    app_secret_set: row?.whatsappAppSecret != null,
    access_token_set: row?.whatsappAccessToken != null,
    phone_number_id: row?.whatsappPhoneNumberId ?? null,
    callback_url: whatsappCallbackUrl(deps, tenantId),
  };
}
