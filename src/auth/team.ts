import type { Deps } from "../deps.ts";
import type { TenantMember } from "../db/store-accounts.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";
import { authenticateUser } from "./authenticate-user.ts";
import { findUserIdByEmail } from "./create-user.ts";
import { setUserPassword } from "./set-password.ts";

/** A tenant's people, by e-mail. */
export function listTeam(deps: Pick<Deps, "store">, tenantId: string): Promise<TenantMember[]> {
  return deps.store.users.listTenantMembers(tenantId);
}

/**
 * Removes a person from a tenant. An account left without any tenant is deleted with its refresh
 * tokens, so its access token is refused at once (src/http/plugins/security.ts); one that still
 * works for another tenant keeps its account but loses this tenant on its next request, since
 * memberships are read per request. The last owner cannot be removed: nobody could add one back.
 */
export async function removeMember(
  deps: Pick<Deps, "store">,
  tenantId: string,
  userId: string,
): Promise<{ userId: string; accountDeleted: boolean }> {
  return deps.store.transaction(async (tx) => {
    const membership = await tx.users.findMembership(userId, tenantId);
    if (!membership) throw notFound("user");
    if (membership.role === "owner") {
      const owners = (await tx.users.listTenantMembers(tenantId)).filter((member) => member.role === "owner");
      if (owners.length <= 1)
        throw new AppError("last_owner", 409, "This is the tenant's only owner: make someone else an owner first.");
    }
    await tx.users.deleteMembership(userId, tenantId);
    const remaining = await tx.users.listMemberships(userId);
    if (remaining.length > 0) return { userId, accountDeleted: false };
    await tx.refreshTokens.deleteUserRefreshTokens(userId);
    await tx.users.deleteUser(userId);
    return { userId, accountDeleted: true };
  });
}

/** Deletes an account everywhere (the CLI's `user delete`): memberships, refresh tokens and the user. */
export async function deleteUserByEmail(
  deps: Pick<Deps, "store">,
  email: string,
): Promise<{ userId: string; tenantIds: string[] }> {
  const userId = await findUserIdByEmail(deps, email);
  if (!userId) throw notFound("user");
  return deps.store.transaction(async (tx) => {
    const tenantIds = (await tx.users.listMemberships(userId)).map((membership) => membership.tenantId);
    await tx.users.deleteUserMemberships(userId);
    await tx.refreshTokens.deleteUserRefreshTokens(userId);
    await tx.users.deleteUser(userId);
    return { userId, tenantIds };
  });
}

/**
 * A signed-in user's own password change. The current password is asked for again, so a token
 * left in an unattended browser cannot lock its owner out; every refresh token is revoked.
 */
export async function changeOwnPassword(
  deps: Deps,
  userId: string,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const user = await deps.store.users.findUser(userId);
  if (!user) throw notFound("user");
  try {
    await authenticateUser(deps, user.email, currentPassword);
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_credentials")
      throw invalidField("current_password", "is not this account's password");
    throw error;
  }
  await setUserPassword(deps, user.email, newPassword);
}
