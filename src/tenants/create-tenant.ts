import type { Deps } from "../deps.ts";
import { isPlanName, PLAN_NAMES, type PlanName } from "../plans/plans.ts";
import { newId } from "../lib/ids.ts";
import { invalidField } from "../lib/validate.ts";
import { normalizeOrigins } from "./origins.ts";

export interface CreateTenantInput {
  name: string;
  plan?: string;
  sector?: string;
  origins?: readonly string[];
}

export interface TenantRecord {
  id: string;
  name: string;
  plan: PlanName;
  sector: string;
  allowedOrigins: string[];
  chatbotId: string;
  createdAt: number;
}

const SECTOR_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Creates a tenant and the one chatbot that comes with it, together. */
export async function createTenant(
  deps: Pick<Deps, "store" | "clock">,
  input: CreateTenantInput,
): Promise<TenantRecord> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw invalidField("name", "must be 1 to 100 characters");
  const plan = input.plan ?? "free";
  if (!isPlanName(plan)) throw invalidField("plan", `must be one of: ${PLAN_NAMES.join(", ")}`);
  const sector = input.sector ?? "general";
  if (!SECTOR_PATTERN.test(sector) || sector.length > 50)
    throw invalidField("sector", "must be a slug such as dental-clinic");
  const allowedOrigins = normalizeOrigins(input.origins ?? []);

  const now = deps.clock.now();
  const tenantId = newId("ten", now);
  const chatbotId = newId("bot", now);
  await deps.store.transaction(async (tx) => {
    await tx.tenants.insertTenant({ id: tenantId, name, plan, sector, allowedOrigins, createdAt: now, updatedAt: now });
    await tx.tenants.insertChatbot({
      id: chatbotId,
      tenantId,
      name: `${name} assistant`,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { id: tenantId, name, plan, sector, allowedOrigins, chatbotId, createdAt: now };
}
