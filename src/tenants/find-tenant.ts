import { asc, eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { chatbots, tenants } from "../db/schema.ts";
import { notFound } from "../lib/app-error.ts";
import type { PlanName } from "../billing/plans.ts";
import type { TenantRecord } from "./create-tenant.ts";

const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  plan: tenants.plan,
  sector: tenants.sector,
  allowedOrigins: tenants.allowedOrigins,
  createdAt: tenants.createdAt,
  chatbotId: chatbots.id,
};

type TenantRow = Omit<TenantRecord, "plan"> & { plan: string };
const asRecord = (row: TenantRow): TenantRecord => ({ ...row, plan: row.plan as PlanName });

/** The tenant with its chatbot, or null when there is no such tenant. */
export function findTenant(deps: Deps, tenantId: string): TenantRecord | null {
  const row = deps.db.select(tenantColumns).from(tenants).innerJoin(chatbots, eq(chatbots.tenantId, tenants.id)).where(eq(tenants.id, tenantId)).get();
  return row ? asRecord(row) : null;
}

export function requireTenant(deps: Deps, tenantId: string): TenantRecord {
  const tenant = findTenant(deps, tenantId);
  if (!tenant) throw notFound("tenant");
  return tenant;
}

export function listTenants(deps: Deps): TenantRecord[] {
  return deps.db.select(tenantColumns).from(tenants).innerJoin(chatbots, eq(chatbots.tenantId, tenants.id)).orderBy(asc(tenants.id)).all().map(asRecord);
}
