import type { Deps } from "../deps.ts";
import { MEMBERSHIP_ROLES, type MembershipRole } from "../db/schema.ts";
import { AppError } from "../lib/app-error.ts";
import { newId } from "../lib/ids.ts";
import { invalidField, normalizeEmail } from "../lib/validate.ts";
import { requireTenant } from "../tenants/find-tenant.ts";
import { parseDisplayName } from "./display-name.ts";
import { passwordsOf, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.ts";

export interface CreateUserInput {
  email: string;
  tenantId: string;
  role?: string;
  /** Needed only when the e-mail has no account yet; see findUserIdByEmail. */
  password?: string;
  /** The name visitors see on the user's replies; an existing account's is set to it too. */
  displayName?: string;
}

export interface CreateUserResult {
  userId: string;
  email: string;
  tenantId: string;
  role: MembershipRole;
  /** false when the account existed and only the membership was added. */
  created: boolean;
}

export function parseEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!normalized) throw invalidField("email", "is not an e-mail address");
  return normalized;
}

export function parseRole(role: string): MembershipRole {
  const found = MEMBERSHIP_ROLES.find((name) => name === role);
  if (!found) throw invalidField("role", `must be one of: ${MEMBERSHIP_ROLES.join(", ")}`);
  return found;
}

export async function findUserIdByEmail(deps: Pick<Deps, "store">, email: string): Promise<string | null> {
  return (await deps.store.users.findUserByEmail(parseEmail(email)))?.id ?? null;
}

/**
 * Creates an account and makes it a member of a tenant. An existing account (same e-mail) is
 * only given the membership: one person can work for several tenants with one password.
 */
export async function createUser(deps: Deps, input: CreateUserInput): Promise<CreateUserResult> {
  const email = parseEmail(input.email);
  const role = parseRole(input.role ?? "owner");
  const displayName = input.displayName === undefined ? null : parseDisplayName(input.displayName);
  await requireTenant(deps, input.tenantId);
  const existingId = await findUserIdByEmail(deps, email);
  let passwordHash: string | null = null;
  if (!existingId) {
    const password = input.password ?? "";
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      throw invalidField("password", `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
    }
    passwordHash = await passwordsOf(deps).hash(password);
  }
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const userId = existingId ?? newId("usr", now);
    if (passwordHash) await tx.users.insertUser({ id: userId, email, passwordHash, displayName, createdAt: now });
    const member = await tx.users.findMembership(userId, input.tenantId);
    if (member) throw new AppError("membership_exists", 409, `${email} is already a member of ${input.tenantId}.`);
    await tx.users.insertMembership({ userId, tenantId: input.tenantId, role, createdAt: now });
    if (!passwordHash && displayName !== null) await tx.users.updateDisplayName(userId, displayName);
    return { userId, email, tenantId: input.tenantId, role, created: passwordHash !== null };
  });
}

/** What GET /api/v1/me shows of the account; nulls when the user is gone. */
export async function findUserProfile(
  deps: Pick<Deps, "store">,
  userId: string,
): Promise<{ email: string | null; displayName: string | null }> {
  const user = await deps.store.users.findUser(userId);
  return { email: user?.email ?? null, displayName: user?.displayName ?? null };
}
