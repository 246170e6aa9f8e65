import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { refreshTokens, users } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { notFound } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";
import { findUserIdByEmail } from "./create-user.ts";
import { passwordsOf, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.ts";

/** Sets a new password and revokes every refresh token of the account: old sessions end. */
export async function setUserPassword(deps: Deps, email: string, password: string): Promise<{ userId: string }> {
  const userId = findUserIdByEmail(deps, email);
  if (!userId) throw notFound("user");
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw invalidField("password", `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const passwordHash = await passwordsOf(deps).hash(password);
  const now = deps.clock.now();
  writeTransaction(deps.sqlite, () => {
    deps.db.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    deps.db.update(refreshTokens).set({ revokedAt: now }).where(eq(refreshTokens.userId, userId)).run();
  });
  return { userId };
}
