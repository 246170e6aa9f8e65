/** argon2id through Bun.password (Bun's defaults: 64 MiB memory, time cost 2). */
export const hashPassword = (password: string): Promise<string> => Bun.password.hash(password, { algorithm: "argon2id" });

export const verifyPassword = (password: string, hash: string): Promise<boolean> => Bun.password.verify(password, hash);

let dummyHash: Promise<string> | null = null;

/**
 * A hash of a random password, made once. Checking an unknown e-mail's password against it
 * costs the same time as a wrong password, so response time does not reveal which e-mails
 * have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  return dummyHash;
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
