import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Tenants' provider API keys at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * server secret, so a copied database alone does not reveal them. The server secret is the one
 * tokens are signed with (PARLEY_JWT_SECRET, else the generated one in the settings table);
 * changing it makes stored keys unreadable, and the tenant must enter them again.
 */

const VERSION = "v1";
/** What sealing needs of a process's deps: the server secret, resolved into the config at start. */
export interface SecretHolder {
  readonly config: { readonly jwtSecret: string | null };
}

// The key of the last secret seen: a process has one server secret, HKDF need not run per call.
let derived: { secret: string; key: Buffer } | null = null;

function serverSecret(deps: SecretHolder): string {
  // Same source as resolveJwtSecret (src/http/deps.ts): resolved into the config when deps are built.
  if (!deps.config.jwtSecret)
    throw new Error("the server secret is resolved when deps are built (src/cli/context.ts openCliDeps)");
  return deps.config.jwtSecret;
}

function keyFor(deps: SecretHolder): Buffer {
  const secret = serverSecret(deps);
  if (derived?.secret === secret) return derived.key;
  // A distinct "info" keeps this key unrelated to the token-signing use of the same secret.
  const key = Buffer.from(hkdfSync("sha256", secret, "parley", "parley/ai-api-key/v1", 32));
  derived = { secret, key };
  return key;
}

export function sealSecret(deps: SecretHolder, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(deps), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

/** The plain text, or null when the value was sealed under another server secret or altered. */
export function openSecret(deps: SecretHolder, sealed: string): string | null {
  if (!sealed.startsWith(`${VERSION}:`)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), "base64");
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(deps), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
