import type { Deps } from "../../deps.ts";
import { orderCertificate } from "./acme-order.ts";
import {
  findLastAttempt,
  findStoredCertificate,
  saveCertificate,
  saveLastAttempt,
  type StoredCertificate,
} from "./acme-store.ts";
import { CertificatePairError, parseCertificatePair, type CertificatePair } from "./certificate-pair.ts";
import { expiryWarning, type TlsStatus } from "./tls-status.ts";

const MINUTE_MS = 60_000;
/** How often an instance looks for a certificate another instance (or `parley tls renew`) stored. */
export const CHECK_INTERVAL_MS = MINUTE_MS;
/** Until a first certificate is served HTTPS is down: look every few seconds (a settings read). */
const FIRST_CHECK_INTERVAL_MS = 5_000;
const RETRY_FIRST_MS = 5 * MINUTE_MS;
const RETRY_MAX_MS = 6 * 60 * MINUTE_MS;
const ORDER_LOCK = "tls-acme";

/** Renewal starts at two thirds of the certificate's lifetime (Let's Encrypt's advice: 60 of 90 days). */
export function renewalDueAtMs(pair: Pick<CertificatePair, "notBeforeMs" | "notAfterMs">): number {
  return pair.notBeforeMs + Math.floor(((pair.notAfterMs - pair.notBeforeMs) * 2) / 3);
}

/** After `failures` failed orders in a row: 5 min, 10, 20, … at most 6 h (the CA's rate limits). */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

export type RenewalOutcome = "current" | "ordered" | "stored-elsewhere" | "waiting" | "failed";

export interface AcmeRenewal {
  /** One check: serve a newer stored certificate, order one when due (or `force`). The loop and tests call it. */
  runOnce(options?: { force?: boolean }): Promise<RenewalOutcome>;
  start(): void;
  stop(): Promise<void>;
}

export interface RenewalOptions {
  /** Puts a certificate in service (the HTTPS listener); the CLI passes a no-op. */
  readonly apply: (pair: CertificatePair) => void;
  readonly order?: (deps: Deps) => Promise<StoredCertificate>;
}

/** The stored certificate when it is for the configured domains and directory and still valid. */
export async function findUsableCertificate(deps: Deps, nowMs: number): Promise<CertificatePair | null> {
  const stored = await findStoredCertificate(deps);
  if (!stored || stored.directory !== deps.config.acmeDirectory) return null;
  if ([...stored.domains].sort().join(",") !== [...deps.config.acmeDomains].sort().join(",")) return null;
  try {
    return parseCertificatePair(stored.cert, stored.key, nowMs);
  } catch (error) {
    if (error instanceof CertificatePairError) return null;
    throw error;
  }
}

/**
 * Keeps an ACME certificate in service. Every instance runs it; ordering happens under a lock
 * (PostgreSQL: an advisory lock), and the lock holder looks again before ordering, so several
 * instances order once and the others serve what it stored. The old certificate serves until
 * the new one is stored; failures back off, recorded in the database for `parley tls status`.
 */
export function createAcmeRenewal(deps: Deps, status: TlsStatus, options: RenewalOptions): AcmeRenewal {
  const order = options.order ?? orderCertificate;
  const serve = (pair: CertificatePair) => {
    if (pair.fingerprint === status.served?.fingerprint) return;
    const first = status.served === null;
    options.apply(pair);
    status.served = pair;
    if (!first) status.renewals += 1;
    deps.log.info({
      msg: "TLS certificate in service",
      domains: pair.dnsNames,
      issuer: pair.issuer,
      not_after: new Date(pair.notAfterMs).toISOString(),
    });
  };

  async function orderUnderLock(force: boolean, nowMs: number): Promise<RenewalOutcome> {
    const result = await deps.store.storage.exclusively(ORDER_LOCK, async (): Promise<RenewalOutcome> => {
      const again = await findUsableCertificate(deps, nowMs);
      if (!force && again && nowMs < renewalDueAtMs(again)) {
        serve(again);
        return "stored-elsewhere";
      }
      const last = await findLastAttempt(deps);
      status.lastAttemptMs = nowMs;
      try {
        deps.log.info({
          msg: "ordering a TLS certificate",
          domains: deps.config.acmeDomains,
          directory: deps.config.acmeDirectory,
        });
        const certificate = await order(deps);
        const pair = parseCertificatePair(certificate.cert, certificate.key, deps.clock.now());
        await saveCertificate(deps, certificate);
        await saveLastAttempt(deps, { atMs: nowMs, ok: true, error: null, failures: 0 });
        status.lastError = null;
        serve(pair);
        return "ordered";
      } catch (error) {
        const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
        const failures = (last && !last.ok ? last.failures : 0) + 1;
        await saveLastAttempt(deps, { atMs: nowMs, ok: false, error: message, failures });
        status.failures += 1;
        status.lastError = { atMs: nowMs, message };
        deps.log.error({
          msg: "TLS certificate order failed; the current certificate keeps serving",
          reason: message,
          retry_in_ms: retryDelayMs(failures),
        });
        return "failed";
      }
    });
    // Another instance holds the lock: it is ordering, and its certificate is picked up next check.
    return result ?? "stored-elsewhere";
  }

  const warnIfExpiring = expiryWarning(status, deps.log);

  // One check at a time in a process (the loop, SIGHUP, a test): two would both order on SQLite.
  let queue: Promise<unknown> = Promise.resolve();
  function runOnce(runOptions: { force?: boolean } = {}): Promise<RenewalOutcome> {
    const next = queue.then(async () => {
      const outcome = await check(runOptions.force ?? false, deps.clock.now());
      warnIfExpiring(deps.clock.now());
      return outcome;
    });
    queue = next.catch(() => undefined);
    return next;
  }

  async function check(force: boolean, nowMs: number): Promise<RenewalOutcome> {
    const stored = await findUsableCertificate(deps, nowMs);
    if (stored) serve(stored);
    if (!force && stored && nowMs < renewalDueAtMs(stored)) return "current";
    const last = await findLastAttempt(deps);
    if (!force && last && !last.ok && nowMs < last.atMs + retryDelayMs(last.failures)) return "waiting";
    return orderUnderLock(force, nowMs);
  }

  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = runOnce()
      .catch((error) => deps.log.error({ msg: "TLS certificate check failed", error: String(error) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, status.served ? CHECK_INTERVAL_MS : FIRST_CHECK_INTERVAL_MS);
      });
  };
  return {
    runOnce,
    start: tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
