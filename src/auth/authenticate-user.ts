import type { Deps } from "../deps.ts";
import { AppError } from "../lib/app-error.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { normalizeEmail } from "../lib/validate.ts";
import { passwordsOf } from "./password.ts";

export const invalidCredentials = (): AppError =>
  new AppError("invalid_credentials", 401, "E-mail or password is wrong.");

/**
 * What wrong passwords are counted against: the e-mail as a login would look it up, hashed so
 * the counters (in the database on PostgreSQL) hold no address. E-mails with no account are
 * counted alike, so a pause tells nobody whether an account exists.
 */
export const loginAccountKey = (email: string): string =>
  sha256Hex(normalizeEmail(email) ?? email.trim().toLowerCase());

/**
 * Checks an e-mail and password. An unknown e-mail still runs one argon2id verification
 * (against a dummy hash) and gets the same 401 as a wrong password: neither timing nor the
 * answer tells an attacker which e-mails have accounts.
 */
export async function authenticateUser(deps: Deps, email: string, password: string): Promise<{ userId: string }> {
  const normalized = normalizeEmail(email);
  const user = normalized ? await deps.store.users.findUserByEmail(normalized) : null;
  const passwords = passwordsOf(deps);
  const ok = await passwords.verify(password, user?.passwordHash ?? (await passwords.dummyHash()));
  if (!user || !ok) throw invalidCredentials();
  return { userId: user.id };
}
