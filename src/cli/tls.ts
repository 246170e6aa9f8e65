import { tlsEnabled } from "../config.ts";
import { createAcmeRenewal, findUsableCertificate, renewalDueAtMs, retryDelayMs } from "../http/tls/acme-renewal.ts";
import { findLastAttempt, type RenewalAttempt } from "../http/tls/acme-store.ts";
import { readCertificatePair, type CertificatePair } from "../http/tls/certificate-pair.ts";
import { createTlsStatus } from "../http/tls/tls-status.ts";
import { parseCommandArgs } from "./args.ts";
import { withCliDepsCreatingDatabase, type CliDeps } from "./context.ts";
import { UsageError, type CliIo } from "./io.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface TlsStatusView {
  source: "files" | "acme";
  domains: readonly string[];
  issuer: string | null;
  not_after: string | null;
  renewal_due: string | null;
  last_attempt: {
    at: string | null;
    ok: boolean;
    error: string | null;
    failures: number;
    next_try: string | null;
  } | null;
}

function attemptView(attempt: RenewalAttempt | null): TlsStatusView["last_attempt"] {
  if (!attempt) return null;
  const nextTry = attempt.ok ? null : iso(attempt.atMs + retryDelayMs(attempt.failures));
  return { at: iso(attempt.atMs), ok: attempt.ok, error: attempt.error, failures: attempt.failures, next_try: nextTry };
}

async function statusView(deps: CliDeps): Promise<TlsStatusView> {
  const { config } = deps;
  const nowMs = deps.clock.now();
  if (config.tlsCertPath && config.tlsKeyPath) {
    const pair = readCertificatePair(config.tlsCertPath, config.tlsKeyPath, nowMs);
    return {
      source: "files",
      domains: pair.dnsNames,
      issuer: pair.issuer,
      not_after: iso(pair.notAfterMs),
      renewal_due: null,
      last_attempt: null,
    };
  }
  const pair: CertificatePair | null = await findUsableCertificate(deps, nowMs);
  return {
    source: "acme",
    domains: config.acmeDomains,
    issuer: pair?.issuer ?? null,
    not_after: iso(pair?.notAfterMs ?? null),
    renewal_due: iso(pair ? renewalDueAtMs(pair) : null),
    last_attempt: attemptView(await findLastAttempt(deps)),
  };
}

function statusLines(view: TlsStatusView): string {
  const attempt = view.last_attempt;
  const attemptText = !attempt
    ? "none"
    : attempt.ok
      ? `${attempt.at} ok`
      : `${attempt.at} failed (${attempt.failures} in a row, next try ${attempt.next_try}): ${attempt.error}`;
  return [
    `source        ${view.source === "files" ? "own files (PARLEY_TLS_CERT, PARLEY_TLS_KEY)" : "ACME"}`,
    `domains       ${view.domains.join(", ")}`,
    `issuer        ${view.issuer ?? "(no certificate yet)"}`,
    `expires       ${view.not_after ?? "-"}`,
    ...(view.source === "acme" ? [`renewal due   ${view.renewal_due ?? "now"}`, `last attempt  ${attemptText}`] : []),
  ].join("\n");
}

/**
 * `parley tls status` and `parley tls renew`. Renew orders from this process under the same lock
 * as the servers; a running server answers the CA's challenge from the database and serves
 * the new certificate within a minute.
 */
export async function tlsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {});
  const [action, ...extra] = positionals;
  if ((action !== "status" && action !== "renew") || extra.length > 0)
    throw new UsageError("usage: parley tls status|renew");
  // A certificate may be ordered before the server first starts: the database is made for it.
  return withCliDepsCreatingDatabase(io, { db: values.db }, async (deps) => {
    if (!tlsEnabled(deps.config))
      throw new UsageError(
        "TLS is off: set PARLEY_ACME_DOMAINS, or PARLEY_TLS_CERT and PARLEY_TLS_KEY, as the server has them",
      );
    if (action === "status") {
      const view = await statusView(deps);
      io.out(values.json ? JSON.stringify(view) : statusLines(view));
      return 0;
    }
    if (deps.config.tlsCertPath)
      throw new UsageError(
        "own certificate files are renewed by the tool that makes them; the server reads them again on change or SIGHUP",
      );
    const outcome = await createAcmeRenewal(deps, createTlsStatus("acme"), { apply: () => {} }).runOnce({
      force: true,
    });
    const view = await statusView(deps);
    if (values.json) io.out(JSON.stringify({ outcome, ...view }));
    else
      io.out(
        outcome === "ordered"
          ? `renewed: ${view.domains.join(", ")} until ${view.not_after}; running servers serve it within a minute`
          : `not renewed (${outcome === "failed" ? view.last_attempt?.error : "another instance is ordering right now"})`,
      );
    return outcome === "ordered" ? 0 : 1;
  });
}
