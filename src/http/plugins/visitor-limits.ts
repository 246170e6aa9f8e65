import type { AppDeps } from "../deps.ts";
import type { TenantRecord } from "../../tenants/create-tenant.ts";
import type { BotConfig } from "../../chat/engine/bot-config.ts";

// The widget's anonymous traffic, counted per client address across every session it opens
// (src/billing/visitor-allowance.ts). PARLEY_RATE_LIMITS=off lifts these too (benchmarks).

/** `ip`, here and below, is asked for only when limits apply (Bun's requestIP is a system call). */
export async function admitVisitorSession(deps: AppDeps, tenantId: string, ip: () => string): Promise<void> {
  if (deps.config.rateLimits) await deps.visitorAllowance.admitSession(deps, tenantId, ip());
}

export async function admitVisitorMessage(
  deps: AppDeps,
  tenant: TenantRecord,
  config: BotConfig,
  ip: () => string,
): Promise<void> {
  if (!deps.config.rateLimits) return;
  const dailyCap = config.limits?.anonymous_daily_messages ?? null;
  await deps.visitorAllowance.admitMessage(deps, tenant, ip(), dailyCap);
}
