import type { TenantQueries, TenantWithChatbot } from "../store-accounts.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { tenants } from "./schema.ts";

// The tenants aggregate on PostgreSQL, the twin of src/db/sqlite/tenants.ts (the lookup version
// and the JSON origins differ). Text ids are ordered `COLLATE "C"` (byte order, as SQLite's
// BINARY) whatever the database's collation.

type RawTenant = Omit<TenantWithChatbot, "allowedOrigins"> & { allowedOrigins: string };

const toTenant = (row: RawTenant): TenantWithChatbot => ({ ...row, allowedOrigins: JSON.parse(row.allowedOrigins) as string[] });

export function pgTenants(db: PgExec): TenantQueries {
  // Bun parses a json column itself; read as text (json keeps the text it was given, here
  // JSON.stringify's) and parse it as the SQLite code does.
  const tenantColumns = pgColumns(tenants, "t").replace('t.allowed_origins AS "allowedOrigins"', 't.allowed_origins::text AS "allowedOrigins"');
  if (!tenantColumns.includes("allowed_origins::text")) throw new Error("pgTenants: allowed_origins is not in the tenants columns");
  const selectTenant = `SELECT ${tenantColumns},
    (SELECT c.id FROM chatbots c WHERE c.tenant_id = t.id ORDER BY c.id COLLATE "C" LIMIT 1) AS "chatbotId"
    FROM tenants t`;
  const one = `${selectTenant} WHERE t.id = $1`;
  const all = `${selectTenant} ORDER BY t.id COLLATE "C"`;
  return {
    // Bumped by statement triggers on tenants and chatbots (migrations/postgres/0001), whichever
    // connection or process writes: no per-connection counter as on SQLite.
    findLookupVersion: async () => {
      const row = await db.get<{ version: number }>("SELECT version::float8 AS version FROM parley_lookup_version WHERE id = 1");
      return String(row?.version ?? 0);
    },
    findTenantPlan: async (tenantId) => (await db.get<{ plan: string }>("SELECT plan FROM tenants WHERE id = $1", [tenantId]))?.plan ?? null,
    findTenant: async (tenantId) => {
      const row = await db.get<RawTenant>(one, [tenantId]);
      return row ? toTenant(row) : null;
    },
    listTenants: async () => (await db.all<RawTenant>(all)).map(toTenant),
    // As SQLite: '[]' compared as text (json keeps the text written, JSON.stringify's), then the elements.
    anyTenantAllowsOrigin: async (origin) =>
      (await db.get<{ ok: number }>(
        `SELECT 1 AS ok FROM tenants
         WHERE allowed_origins::text = '[]' OR EXISTS (SELECT 1 FROM json_array_elements_text(allowed_origins) AS o(value) WHERE o.value = $1)
         LIMIT 1`,
        [origin],
      )) !== null,
    insertTenant: async (row) => {
      await db.run(
        "INSERT INTO tenants (id, name, plan, sector, allowed_origins, created_at, updated_at) VALUES ($1, $2, $3, $4, $5::text::json, $6, $7)",
        [row.id, row.name, row.plan, row.sector, JSON.stringify(row.allowedOrigins), row.createdAt, row.updatedAt],
      );
    },
    updateTenantPlan: async (tenantId, plan, updatedAt) => {
      await db.run("UPDATE tenants SET plan = $1, updated_at = $2 WHERE id = $3", [plan, updatedAt, tenantId]);
    },
    // The config default ({}) as the SQLite schema's: the query builder there fills it in.
    // `$n::text::json`: Bun sends a string bound to a json parameter as a JSON *string*.
    insertChatbot: async (row) => {
      await db.run("INSERT INTO chatbots (id, tenant_id, name, config, created_at, updated_at) VALUES ($1, $2, $3, $4::text::json, $5, $6)", [
        row.id,
        row.tenantId,
        row.name,
        JSON.stringify(row.config ?? {}),
        row.createdAt,
        row.updatedAt,
      ]);
    },
  };
}
