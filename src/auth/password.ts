/**
 * How passwords are hashed and checked. Production uses ARGON2ID_PASSWORDS; the seam exists so
 * test fixtures can inject a cheap hasher (see test/helpers.ts) instead of spending 150 ms of
 * CPU on every login they set up.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /**
   * A hash of a random password, made once. Checking an unknown e-mail's password against it
   * costs the same time as a wrong password, so response time does not reveal which e-mails
   * have accounts.
   */
  dummyHash(): Promise<string>;
}

/** argon2id through Bun.password with the given cost (Bun's defaults: 64 MiB memory, time cost 2). */
export function createArgon2idHasher(cost: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const hash = (password: string) => Bun.password.hash(password, { algorithm: "argon2id", ...cost });
  let dummy: Promise<string> | null = null;
  return {
    hash,
    // The hash string names its own algorithm and cost, so verify works across cost changes.
    verify: (password, hashed) => Bun.password.verify(password, hashed),
    dummyHash: () => (dummy ??= hash(crypto.randomUUID())),
  };
}

export const ARGON2ID_PASSWORDS: PasswordHasher = createArgon2idHasher();

/** The hasher a deps object carries, or the production one. */
export const passwordsOf = (deps: { passwords?: PasswordHasher }): PasswordHasher =>
  deps.passwords ?? ARGON2ID_PASSWORDS;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
