import type { Deps } from "../deps.ts";
import type { TenantWithChatbot } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import type { PlanName } from "../plans/plans.ts";
import type { TenantRecord } from "./create-tenant.ts";
import { createLookupCache } from "./lookup-cache.ts";

// Every chat message looks its tenant up (plan, origins): cached, invalidated by any tenant write.
const tenantCache = createLookupCache<TenantRecord>();

function toRecord(row: TenantWithChatbot): TenantRecord | null {
  if (row.chatbotId === null) return null;
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanName,
    sector: row.sector,
    allowedOrigins: row.allowedOrigins,
    chatbotId: row.chatbotId,
    createdAt: row.createdAt,
  };
}

/**
 * The tenant with its chatbot, or null when there is no such tenant. Shared: do not mutate.
 * `lookupVersion`: see LookupCache.get.
 */
export function findTenant(
  deps: Pick<Deps, "store">,
  tenantId: string,
  lookupVersion?: string,
): Promise<TenantRecord | null> {
  return tenantCache.get(
    deps.store,
    tenantId,
    async () => {
      const row = await deps.store.tenants.findTenant(tenantId);
      return row ? toRecord(row) : null;
    },
    lookupVersion,
  );
}

/** The cached tenant with the lookup version it holds for, reading nothing (LookupCache.peek). */
export const peekTenant = (
  deps: Pick<Deps, "store">,
  tenantId: string,
): { value: TenantRecord; version: string } | null => tenantCache.peek(deps.store, tenantId);

export async function requireTenant(
  deps: Pick<Deps, "store">,
  tenantId: string,
  lookupVersion?: string,
): Promise<TenantRecord> {
  const tenant = await findTenant(deps, tenantId, lookupVersion);
  if (!tenant) throw notFound("tenant");
  return tenant;
}

export async function listTenants(deps: Pick<Deps, "store">): Promise<TenantRecord[]> {
  return (await deps.store.tenants.listTenants())
    .map(toRecord)
    .filter((tenant): tenant is TenantRecord => tenant !== null);
}
