import type { Database } from "bun:sqlite";
import type { TenantQueries } from "../store.ts";
import type { SyncOf } from "./gate.ts";

export function sqliteTenants(sqlite: Database): SyncOf<TenantQueries> {
  const plan = sqlite.prepare<{ plan: string }, [string]>("SELECT plan FROM tenants WHERE id = ?");
  return {
    findTenantPlan: (tenantId) => plan.get(tenantId)?.plan ?? null,
  };
}
