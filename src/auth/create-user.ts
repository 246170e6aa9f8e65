import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { memberships, users, MEMBERSHIP_ROLES, type MembershipRole } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { AppError } from "../lib/app-error.ts";
import { newId } from "../lib/ids.ts";
import { invalidField, normalizeEmail } from "../lib/validate.ts";
import { requireTenant } from "../tenants/find-tenant.ts";
import { passwordsOf, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.ts";

export interface CreateUserInput {
  email: string;
  tenantId: string;
  role?: string;
  /** Needed only when the e-mail has no account yet; see findUserIdByEmail. */
  password?: string;
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

export function findUserIdByEmail(deps: Deps, email: string): string | null {
  return deps.db.select({ id: users.id }).from(users).where(eq(users.email, parseEmail(email))).get()?.id ?? null;
}

/**
 * Creates an account and makes it a member of a tenant. An existing account (same e-mail) is
 * only given the membership: one person can work for several tenants with one password.
 */
export async function createUser(deps: Deps, input: CreateUserInput): Promise<CreateUserResult> {
  const email = parseEmail(input.email);
  const role = parseRole(input.role ?? "owner");
  requireTenant(deps, input.tenantId);
  const existingId = findUserIdByEmail(deps, email);
  let passwordHash: string | null = null;
  if (!existingId) {
    const password = input.password ?? "";
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      throw invalidField("password", `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
    }
    passwordHash = await passwordsOf(deps).hash(password);
  }
  const now = deps.clock.now();
  return writeTransaction(deps.sqlite, () => {
    const userId = existingId ?? newId("usr", now);
    if (passwordHash) deps.db.insert(users).values({ id: userId, email, passwordHash, createdAt: now }).run();
    const member = deps.db.select().from(memberships).where(and(eq(memberships.userId, userId), eq(memberships.tenantId, input.tenantId))).get();
    if (member) throw new AppError("membership_exists", 409, `${email} is already a member of ${input.tenantId}.`);
    deps.db.insert(memberships).values({ userId, tenantId: input.tenantId, role, createdAt: now }).run();
    return { userId, email, tenantId: input.tenantId, role, created: passwordHash !== null };
  });
}

export function findUserEmail(deps: Deps, userId: string): string | null {
  return deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get()?.email ?? null;
}
