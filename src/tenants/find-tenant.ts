import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { notFound } from "../lib/app-error.ts";
import type { PlanName } from "../billing/plans.ts";
import type { TenantRecord } from "./create-tenant.ts";

interface TenantRow {
  id: string;
  name: string;
  plan: string;
  sector: string;
  allowed_origins: string;
  created_at: number;
  chatbot_id: string | null;
}

// Raw prepared statements: this runs on every chat message, where the query builder's
// per-call planning cost more than the rest of the lookup.
const SELECT_TENANT = `SELECT t.id, t.name, t.plan, t.sector, t.allowed_origins, t.created_at,
  (SELECT c.id FROM chatbots c WHERE c.tenant_id = t.id ORDER BY c.id LIMIT 1) AS chatbot_id
  FROM tenants t`;

const statements = preparedFor((sqlite) => ({
  one: sqlite.prepare<TenantRow, [string]>(`${SELECT_TENANT} WHERE t.id = ?`),
  all: sqlite.prepare<TenantRow, []>(`${SELECT_TENANT} ORDER BY t.id`),
}));

function toRecord(row: TenantRow): TenantRecord | null {
  if (row.chatbot_id === null) return null;
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanName,
    sector: row.sector,
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    chatbotId: row.chatbot_id,
    createdAt: row.created_at,
  };
}

/** The tenant with its chatbot, or null when there is no such tenant. */
export function findTenant(deps: Deps, tenantId: string): TenantRecord | null {
  const row = statements(deps.sqlite).one.get(tenantId);
  return row ? toRecord(row) : null;
}

export function requireTenant(deps: Deps, tenantId: string): TenantRecord {
  const tenant = findTenant(deps, tenantId);
  if (!tenant) throw notFound("tenant");
  return tenant;
}

export function listTenants(deps: Deps): TenantRecord[] {
  return statements(deps.sqlite)
    .all.all()
    .map(toRecord)
    .filter((tenant): tenant is TenantRecord => tenant !== null);
}
