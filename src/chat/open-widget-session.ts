import type { Deps } from "../deps.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import type { TenantRecord } from "../tenants/create-tenant.ts";
import { findTenant } from "../tenants/find-tenant.ts";
import { isOriginAllowed } from "../tenants/origins-check.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import { getBotConfig } from "./bot-settings.ts";
import { startSession, type SessionRow } from "./sessions.ts";

/** The tenant, when this browser origin may use its widget; 404 or 403 otherwise. */
export async function requireTenantForOrigin(
  deps: Pick<Deps, "store">,
  tenantId: string,
  origin: string | null,
): Promise<TenantRecord> {
  const tenant = await findTenant(deps, tenantId);
  if (!tenant) throw notFound("tenant");
  if (!isOriginAllowed(tenant.allowedOrigins, origin)) {
    throw new AppError("origin_not_allowed", 403, "This site is not in the tenant's allowed origins.");
  }
  return tenant;
}

export interface OpenWidgetSessionInput {
  tenantId: string;
  /** The page's Origin header (null when the browser sent none). */
  origin: string | null;
  /** The per-address allowance on new sessions (src/billing/visitor-allowance.ts): throws its 429. */
  admit: (tenantId: string) => void | Promise<void>;
  /** The page the visitor opened the chat on (the inbox shows it); null when unknown. */
  pageUrl?: string | null;
}

/**
 * A widget visitor's new session: the origin must be one the tenant allows, then the visitor's
 * address must have room for a new session; only then is the session stored. The caller
 * issues the visitor token for it.
 */
export async function openWidgetSession(
  deps: Deps,
  input: OpenWidgetSessionInput,
): Promise<{ tenant: TenantRecord; session: SessionRow; config: BotConfig }> {
  const tenant = await requireTenantForOrigin(deps, input.tenantId, input.origin);
  await input.admit(tenant.id);
  const session = await startSession(deps, deps.store, {
    tenantId: tenant.id,
    channel: "widget",
    origin: input.origin,
  });
  if (input.pageUrl) await deps.store.inbox.recordPageUrl(tenant.id, session.id, input.pageUrl);
  return { tenant, session, config: await getBotConfig(deps, tenant.id) };
}
