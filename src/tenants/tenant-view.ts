import { toIso } from "../lib/clock.ts";
import type { TenantRecord } from "./create-tenant.ts";

/** A tenant as the API shows it (GET /api/v1/tenant) and `parley tenant … --json` prints it. */
export const tenantView = (tenant: TenantRecord) => ({
  tenant_id: tenant.id,
  name: tenant.name,
  plan: tenant.plan,
  sector: tenant.sector,
  chatbot_id: tenant.chatbotId,
  allowed_origins: tenant.allowedOrigins,
  created_at: toIso(tenant.createdAt),
});
