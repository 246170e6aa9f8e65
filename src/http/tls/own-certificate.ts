import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";
import { readCertificatePair, type CertificatePair } from "./certificate-pair.ts";
import type { TlsStatus } from "./tls-status.ts";

export interface OwnFiles {
  readonly certPath: string;
  readonly keyPath: string;
}

export type ReloadOutcome = "replaced" | "unchanged" | "failed";

/**
 * Reads the operator's files again and serves them if they changed. A pair that cannot be served
 * (half-written by a renewal, mismatched, expired) keeps the old certificate in service and is
 * reported in the log and /metrics until a good pair arrives.
 */
export function reloadOwnCertificate(
  files: OwnFiles,
  deps: { clock: Clock; log: Logger },
  status: TlsStatus,
  apply: (pair: CertificatePair) => void,
): ReloadOutcome {
  const nowMs = deps.clock.now();
  status.lastAttemptMs = nowMs;
  let pair: CertificatePair;
  try {
    pair = readCertificatePair(files.certPath, files.keyPath, nowMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    status.failures += 1;
    status.lastError = { atMs: nowMs, message };
    deps.log.error({ msg: "TLS certificate not reloaded; the previous one keeps serving", reason: message });
    return "failed";
  }
  status.lastError = null;
  if (pair.fingerprint === status.served?.fingerprint) return "unchanged";
  apply(pair);
  status.served = pair;
  status.renewals += 1;
  deps.log.info({
    msg: "TLS certificate reloaded",
    subject: pair.subject,
    not_after: new Date(pair.notAfterMs).toISOString(),
  });
  return "replaced";
}

/** How long after the last change to the files they are read: a renewal writes cert and key one after the other. */
const SETTLE_MS = 300;

/**
 * Reloads on SIGHUP and when either file changes. The directories are watched, not the files:
 * certbot and most tools replace a file (rename or symlink swap), which a watch on the old
 * file would not see.
 */
export function watchOwnCertificate(files: OwnFiles, reload: () => void, log: Logger): { stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      reload();
    }, SETTLE_MS);
  };
  const names = new Set([basename(files.certPath), basename(files.keyPath)]);
  const watchers: FSWatcher[] = [...new Set([dirname(files.certPath), dirname(files.keyPath)])].map((directory) =>
    watch(directory, (_event, name) => {
      // Some platforms give no name; a symlinked "live" directory changes other entries too.
      if (name === null || names.has(String(name)) || String(name).startsWith("..")) schedule();
    }),
  );
  const onHangup = () => {
    log.info({ msg: "SIGHUP received: reading the TLS certificate files again" });
    schedule();
  };
  process.on("SIGHUP", onHangup);
  return {
    stop() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      process.off("SIGHUP", onHangup);
    },
  };
}
