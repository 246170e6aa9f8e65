import type { ApiKeySummary, CreatedApiKey } from "../auth/api-keys.ts";
import type { CreateUserResult } from "../auth/create-user.ts";
import type { PlanChangeResult } from "../billing/change-plan.ts";
import { toIso } from "../lib/clock.ts";
import { tenantView } from "../tenants/tenant-view.ts";

// What `--json` prints: the HTTP API's field names (snake_case, `<kind>_id`) and ISO 8601
// times, so a script can switch between the CLI and the API without renaming fields.

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

/** The shape of GET /api/v1/tenant. */
export const tenantJson = tenantView;

export const apiKeyJson = (key: ApiKeySummary) => ({
  key_id: key.id,
  tenant_id: key.tenantId,
  name: key.name,
  prefix: key.prefix,
  created_at: toIso(key.createdAt),
  last_used_at: isoOrNull(key.lastUsedAt),
  revoked_at: isoOrNull(key.revokedAt),
});

export const createdApiKeyJson = (key: CreatedApiKey) => ({ ...apiKeyJson(key), key: key.key });

export const userJson = (user: CreateUserResult) => ({
  user_id: user.userId,
  email: user.email,
  tenant_id: user.tenantId,
  role: user.role,
  created: user.created,
});

/** Like PUT /api/v1/subscription's from_plan and change. */
export const planChangeJson = (result: PlanChangeResult) => ({
  tenant_id: result.tenantId,
  plan: result.toPlan,
  from_plan: result.fromPlan,
  change: result.change,
});
