import { TENANT_OPS } from "../sql/tenants.ts";
import type { TenantQueries } from "../store-accounts.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

export function pgTenants(db: PgExec): TenantQueries {
  return {
    ...pgOps(db, TENANT_OPS),
    // Bumped by statement triggers (migrations/postgres/0001), whoever writes.
    findLookupVersion: async () => {
      const row = await db.get<{ version: number }>(
        "SELECT version::float8 AS version FROM parley_lookup_version WHERE id = 1",
      );
      return String(row?.version ?? 0);
    },
  };
}
