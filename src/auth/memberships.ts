import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { memberships, type MembershipRole } from "../db/schema.ts";

export interface Membership {
  tenantId: string;
  role: MembershipRole;
}

export function listMemberships(deps: Deps, userId: string): Membership[] {
  return deps.db.select({ tenantId: memberships.tenantId, role: memberships.role }).from(memberships).where(eq(memberships.userId, userId)).all();
}
