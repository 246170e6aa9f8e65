import type { Deps } from "../deps.ts";
import { createApiKey } from "../auth/api-keys.ts";
import { createUser } from "../auth/create-user.ts";
import { randomBase62 } from "../lib/crypto.ts";
import { updateBotConfig } from "../chat/bot-settings.ts";
import { createTenant } from "../tenants/create-tenant.ts";
import { findTenant } from "../tenants/find-tenant.ts";
import { openWidgetSession } from "../chat/open-widget-session.ts";
import { createTokenService, VISITOR_TOKEN_TTL_S, WIDGET_AUDIENCE } from "../http/plugins/tokens.ts";
import { resolveJwtSecret } from "../http/deps.ts";

export const DEMO_EMAIL = "demo@parley.local";

export type DemoSeed =
  | { created: true; tenantId: string; email: string; password: string; apiKey: string; visitorToken: string }
  | { created: false; tenantId: string; email: string };

/**
 * Seeds the demo tenant once: a dental clinic speaking English, Portuguese and Spanish, with an owner and an API key. The password and
 * key are returned only on the run that made them (only their hashes are stored); later runs
 * report that the demo exists.
 */
export async function seedDemo(deps: Deps): Promise<DemoSeed> {
  const existingId = await deps.store.settings.findSetting("demo_tenant_id");
  if (existingId && (await findTenant(deps, existingId)))
    return { created: false, tenantId: existingId, email: DEMO_EMAIL };
  const tenant = await createTenant(deps, { name: "Demo Dental Clinic", sector: "dental-clinic", plan: "starter" });
  // The demo shows every language the engine speaks.
  await updateBotConfig(deps, tenant.id, { languages: ["en", "pt", "es"] });
  const password = randomBase62(16);
  await createUser(deps, { email: DEMO_EMAIL, tenantId: tenant.id, role: "owner", password });
  const { key } = await createApiKey(deps, { tenantId: tenant.id, name: "demo" });
  await deps.store.settings.putSetting("demo_tenant_id", tenant.id);
  return {
    created: true,
    tenantId: tenant.id,
    email: DEMO_EMAIL,
    password,
    apiKey: key,
    visitorToken: await demoVisitorToken(deps, tenant.id),
  };
}

/**
 * A visitor's token for the banner's chat example, so the line works as printed: a widget
 * session of the demo tenant, exactly what POST /api/v1/widget/session gives (valid 24 hours).
 */
async function demoVisitorToken(deps: Deps, tenantId: string): Promise<string> {
  const { session } = await openWidgetSession(deps, { tenantId, origin: null, admit: () => undefined });
  return createTokenService(resolveJwtSecret(deps), deps.clock).signAccess(
    { sub: session.id, tid: tenantId },
    WIDGET_AUDIENCE,
    VISITOR_TOKEN_TTL_S,
  );
}
