import { openSecret, sealSecret } from "../../lib/secret-box.ts";
import type { Deps } from "../../deps.ts";

/**
 * What ACME keeps in the settings table, so a restart and every instance on the same database
 * share one account and one certificate. Keys are sealed like the tenants' provider keys
 * (src/lib/secret-box.ts): a copied database alone does not reveal them.
 */
const ACCOUNT = "tls_acme_account";
const CERTIFICATE = "tls_acme_certificate";
const LAST_ATTEMPT = "tls_acme_last_attempt";
const CHALLENGES = "tls_acme_challenges";

export interface StoredCertificate {
  readonly directory: string;
  readonly domains: readonly string[];
  readonly cert: string;
  readonly key: string;
  readonly obtainedAtMs: number;
}

export interface RenewalAttempt {
  readonly atMs: number;
  readonly ok: boolean;
  readonly error: string | null;
  /** Failures in a row: the backoff grows with it. */
  readonly failures: number;
}

async function readSealed<T>(deps: Deps, key: string): Promise<T | null> {
  const sealed = await deps.store.settings.findSetting(key);
  const plain = sealed === null ? null : openSecret(deps, sealed);
  return plain === null ? null : (JSON.parse(plain) as T);
}

async function readPlain<T>(deps: Deps, key: string): Promise<T | null> {
  const text = await deps.store.settings.findSetting(key);
  return text ? (JSON.parse(text) as T) : null;
}

/** The account key (PEM) for `directory`: each CA has accounts of its own. */
export async function findAccountKey(deps: Deps, directory: string): Promise<string | null> {
  const account = await readSealed<{ directory: string; key: string }>(deps, ACCOUNT);
  return account?.directory === directory ? account.key : null;
}

export async function saveAccountKey(deps: Deps, directory: string, key: string): Promise<void> {
  await deps.store.settings.putSetting(ACCOUNT, sealSecret(deps, JSON.stringify({ directory, key })));
}

/** The stored certificate, or null when none was obtained (or the server secret changed). */
export async function findStoredCertificate(deps: Deps): Promise<StoredCertificate | null> {
  return readSealed<StoredCertificate>(deps, CERTIFICATE);
}

export async function saveCertificate(deps: Deps, certificate: StoredCertificate): Promise<void> {
  await deps.store.settings.putSetting(CERTIFICATE, sealSecret(deps, JSON.stringify(certificate)));
}

export async function findLastAttempt(deps: Deps): Promise<RenewalAttempt | null> {
  return readPlain<RenewalAttempt>(deps, LAST_ATTEMPT);
}

export async function saveLastAttempt(deps: Deps, attempt: RenewalAttempt): Promise<void> {
  await deps.store.settings.putSetting(LAST_ATTEMPT, JSON.stringify(attempt));
}

/**
 * Pending HTTP-01 answers (token → key authorization), in the database so whichever instance
 * the CA reaches can answer for the one that ordered. They are public by design (the CA fetches
 * them over plain HTTP); only the ordering instance writes them, under the ordering lock.
 */
export async function findChallengeAnswer(deps: Deps, token: string): Promise<string | null> {
  const pending = await readPlain<Record<string, string>>(deps, CHALLENGES);
  return pending && Object.hasOwn(pending, token) ? (pending[token] ?? null) : null;
}

export async function setChallengeAnswer(deps: Deps, token: string, answer: string | null): Promise<void> {
  const pending = (await readPlain<Record<string, string>>(deps, CHALLENGES)) ?? {};
  if (answer === null) delete pending[token];
  else pending[token] = answer;
  await deps.store.settings.putSetting(CHALLENGES, JSON.stringify(pending));
}
