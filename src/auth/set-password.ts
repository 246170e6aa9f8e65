import type { Deps } from "../deps.ts";
import { notFound } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";
import { findUserIdByEmail } from "./create-user.ts";
import { passwordsOf, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.ts";

/** Sets a new password and revokes every refresh token of the account: old sessions end. */
export async function setUserPassword(deps: Deps, email: string, password: string): Promise<{ userId: string }> {
  const userId = await findUserIdByEmail(deps, email);
  if (!userId) throw notFound("user");
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw invalidField("password", `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const passwordHash = await passwordsOf(deps).hash(password);
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    await tx.users.updatePasswordHash(userId, passwordHash);
    await tx.refreshTokens.revokeUserRefreshTokens(userId, now);
  });
  return { userId };
}
