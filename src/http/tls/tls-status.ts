import type { Logger } from "../../lib/log.ts";
import type { CertificatePair } from "./certificate-pair.ts";

const DAY_MS = 86_400_000;
/** Expiry this close shows in /readyz's detail and the log: time to act before visitors see errors. */
export const EXPIRY_WARNING_MS = 7 * DAY_MS;

/** What the server knows about the certificate it serves: /metrics, /readyz and the log read it. */
export interface TlsStatus {
  readonly source: "files" | "acme";
  served: CertificatePair | null;
  /** The last failed load or renewal, kept until one succeeds. */
  lastError: { atMs: number; message: string } | null;
  lastAttemptMs: number | null;
  failures: number;
  renewals: number;
}

export function createTlsStatus(source: TlsStatus["source"], served: CertificatePair | null = null): TlsStatus {
  return { source, served, lastError: null, lastAttemptMs: null, failures: 0, renewals: 0 };
}

/** /readyz detail while the served certificate expires within 7 days (still ready: it serves). */
export function tlsReadinessDetail(
  status: TlsStatus,
  nowMs: number,
): { certificate_expires_at: string; certificate_expires_in_days: number } | null {
  const served = status.served;
  if (!served || served.notAfterMs - nowMs > EXPIRY_WARNING_MS) return null;
  return {
    certificate_expires_at: new Date(served.notAfterMs).toISOString(),
    certificate_expires_in_days: Math.max(0, Math.floor((served.notAfterMs - nowMs) / DAY_MS)),
  };
}

/** Logs, at most once a day, while the served certificate expires within 7 days; call it with the clock's time. */
export function expiryWarning(status: TlsStatus, log: Logger): (nowMs: number) => void {
  let warnedAtMs: number | null = null;
  return (nowMs) => {
    const expiring = tlsReadinessDetail(status, nowMs);
    if (!expiring || (warnedAtMs !== null && nowMs - warnedAtMs < DAY_MS)) return;
    warnedAtMs = nowMs;
    log.error({
      msg: "TLS certificate expires soon and is not renewed yet",
      ...expiring,
      last_error: status.lastError?.message ?? null,
    });
  };
}

/** Prometheus lines: seconds until the served certificate expires, reloads that failed and why. */
export function renderTlsMetrics(status: TlsStatus, nowMs: number): string {
  const lines = [
    "# HELP parley_tls_certificate_expiry_seconds Seconds until the served TLS certificate expires.",
    "# TYPE parley_tls_certificate_expiry_seconds gauge",
    `parley_tls_certificate_expiry_seconds ${status.served ? Math.floor((status.served.notAfterMs - nowMs) / 1000) : 0}`,
    "# HELP parley_tls_certificate_failures_total Certificate loads or renewals that failed (the previous certificate kept serving).",
    "# TYPE parley_tls_certificate_failures_total counter",
    `parley_tls_certificate_failures_total ${status.failures}`,
    "# HELP parley_tls_certificate_renewals_total Certificates put in service after the first one.",
    "# TYPE parley_tls_certificate_renewals_total counter",
    `parley_tls_certificate_renewals_total ${status.renewals}`,
    "# HELP parley_tls_certificate_last_error 1 while the last load or renewal failed; the reason is the label.",
    "# TYPE parley_tls_certificate_last_error gauge",
    `parley_tls_certificate_last_error{reason="${escapeLabel(status.lastError?.message ?? "")}"} ${status.lastError ? 1 : 0}`,
  ];
  return `${lines.join("\n")}\n`;
}

function escapeLabel(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").slice(0, 300);
}
