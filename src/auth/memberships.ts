import type { Deps } from "../deps.ts";
import type { MembershipRole } from "../db/schema.ts";

export interface Membership {
  tenantId: string;
  role: MembershipRole;
}

export async function listMemberships(deps: Pick<Deps, "store">, userId: string): Promise<Membership[]> {
  return (await deps.store.users.listMemberships(userId)).map((row) => ({ tenantId: row.tenantId, role: row.role }));
}
