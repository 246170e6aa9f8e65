import type { Database } from "bun:sqlite";
import type { Db } from "../client.ts";
import { chatbots, tenants } from "../schema.ts";
import type { TenantQueries, TenantWithChatbot } from "../store-accounts.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";
import { lookupVersionReader, markLookupWrite } from "./lookup-version.ts";

type RawTenant = Omit<TenantWithChatbot, "allowedOrigins"> & { allowedOrigins: string };

const toTenant = (row: RawTenant): TenantWithChatbot => ({ ...row, allowedOrigins: JSON.parse(row.allowedOrigins) as string[] });

export function sqliteTenants(sqlite: Database, db: Db): SyncOf<TenantQueries> {
  // Raw prepared statements: findTenant runs on every chat message, where the query builder's
  // per-call planning cost more than the rest of the lookup.
  const selectTenant = `SELECT ${selectColumns(tenants, "t")},
    (SELECT c.id FROM chatbots c WHERE c.tenant_id = t.id ORDER BY c.id LIMIT 1) AS "chatbotId"
    FROM tenants t`;
  const one = sqlite.prepare<RawTenant, [string]>(`${selectTenant} WHERE t.id = ?`);
  const all = sqlite.prepare<RawTenant, []>(`${selectTenant} ORDER BY t.id`);
  const plan = sqlite.prepare<{ plan: string }, [string]>("SELECT plan FROM tenants WHERE id = ?");
  const setPlan = sqlite.prepare("UPDATE tenants SET plan = ?, updated_at = ? WHERE id = ?");
  const anyAllows = sqlite.prepare<{ ok: number }, [string]>(
    "SELECT 1 AS ok FROM tenants WHERE allowed_origins = '[]' OR EXISTS (SELECT 1 FROM json_each(tenants.allowed_origins) WHERE value = ?) LIMIT 1",
  );
  const lookupVersion = lookupVersionReader(sqlite);
  return {
    findLookupVersion: lookupVersion,
    findTenantPlan: (tenantId) => plan.get(tenantId)?.plan ?? null,
    findTenant: (tenantId) => {
      const row = one.get(tenantId);
      return row ? toTenant(row) : null;
    },
    listTenants: () => all.all().map(toTenant),
    anyTenantAllowsOrigin: (origin) => anyAllows.get(origin) !== null,
    updateTenantPlan: (tenantId, newPlan, updatedAt) => {
      markLookupWrite(sqlite);
      setPlan.run(newPlan, updatedAt, tenantId);
    },
    // JSON columns and defaults: the query builder, as creating a tenant is rare.
    insertTenant: (row) => {
      markLookupWrite(sqlite);
      db.insert(tenants).values(row).run();
    },
    insertChatbot: (row) => {
      markLookupWrite(sqlite);
      db.insert(chatbots).values(row).run();
    },
  };
}
