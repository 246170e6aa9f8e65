import type { Server } from "bun";
import { ConfigError, type Config } from "../../config.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/log.ts";
import { CertificatePairError, readCertificatePair, type CertificatePair } from "./certificate-pair.ts";
import { secureResponse } from "./https-headers.ts";
import { listenHttps, type HttpsListener } from "./https-listener.ts";
import { listenRedirect } from "./http-redirect.ts";
import { reloadOwnCertificate, watchOwnCertificate } from "./own-certificate.ts";
import { expiryWarning, type TlsStatus } from "./tls-status.ts";
import type { Deps } from "../../deps.ts";
import { createAcmeRenewal, type AcmeRenewal } from "./acme-renewal.ts";
import { findChallengeAnswer } from "./acme-store.ts";

export interface TlsServing {
  readonly status: TlsStatus;
  readonly port: number;
  /** Resolves once HTTPS listens. */
  readonly ready: Promise<void>;
  /** Re-reads the certificate now (what SIGHUP does); tests call it. */
  reload(): void;
  stop(): Promise<void>;
}

export interface TlsServeInput {
  readonly config: Config;
  readonly clock: Clock;
  readonly log: Logger;
  readonly fetch: (request: Request) => Response | Promise<Response>;
  readonly serveOptions: { readonly maxRequestBodySize: number; readonly development: boolean };
  readonly onServer: (server: Server<undefined>) => void;
  /** ACME HTTP-01 answers (null: none pending). */
  readonly challenge?: (token: string) => string | null | Promise<string | null>;
}

/** The operator's own pair at start-up: a pair that cannot be served stops start-up (exit 2). */
export function readStartupPair(config: Config, nowMs: number): CertificatePair {
  if (!config.tlsCertPath || !config.tlsKeyPath)
    throw new Error("readStartupPair needs PARLEY_TLS_CERT and PARLEY_TLS_KEY");
  try {
    return readCertificatePair(config.tlsCertPath, config.tlsKeyPath, nowMs);
  } catch (error) {
    if (error instanceof CertificatePairError)
      throw new ConfigError(`PARLEY_TLS_CERT/PARLEY_TLS_KEY: ${error.message}`);
    throw error;
  }
}

interface Listeners {
  readonly port: number;
  /** Resolves once HTTPS listens (at once when started with a certificate). */
  readonly ready: Promise<void>;
  apply(pair: CertificatePair): void;
  stop(): Promise<void>;
}

/**
 * Plain HTTP on PARLEY_HTTP_PORT (redirects, ACME challenges) at once; HTTPS on PARLEY_PORT
 * as soon as there is a certificate, then each new certificate replaces the served one.
 */
function startListeners(input: TlsServeInput, first: CertificatePair | null): Listeners {
  const { config } = input;
  let https: HttpsListener | null = first ? startHttps(input, first) : null;
  let markReady = () => {};
  const ready = https ? Promise.resolve() : new Promise<void>((resolve) => (markReady = resolve));
  const httpsPort = () => https?.port ?? config.port;
  let redirect: Server<undefined>;
  try {
    redirect = bindOrExplain(config.host, config.httpPort, () =>
      listenRedirect({
        port: config.httpPort,
        hostname: config.host,
        get httpsPort() {
          return httpsPort();
        },
        challenge: input.challenge ?? (() => null),
      }),
    );
  } catch (error) {
    void https?.stop();
    throw error;
  }
  return {
    get port() {
      return httpsPort();
    },
    ready,
    apply(pair) {
      if (https) return https.replace(pair);
      https = startHttps(input, pair);
      markReady();
    },
    async stop() {
      await Promise.all([https?.stop(), redirect.stop(false)]);
    },
  };
}

/**
 * HTTPS with the operator's own files, read again on SIGHUP and when the files change; a pair
 * that cannot be served keeps the previous one.
 */
export function serveOwnCertificate(input: TlsServeInput, status: TlsStatus): TlsServing {
  if (!status.served) throw new Error("serveOwnCertificate starts with the pair read at start-up");
  const listeners = startListeners(input, status.served);
  const files = { certPath: input.config.tlsCertPath ?? "", keyPath: input.config.tlsKeyPath ?? "" };
  const reload = () => void reloadOwnCertificate(files, input, status, (next) => listeners.apply(next));
  const watcher = watchOwnCertificate(files, reload, input.log);
  // Nothing renews own files from here: an hourly look makes an expiring pair show in the log.
  const warnIfExpiring = expiryWarning(status, input.log);
  let expiryTimer: ReturnType<typeof setTimeout> | null = null;
  const lookAtExpiry = () => {
    warnIfExpiring(input.clock.now());
    expiryTimer = setTimeout(lookAtExpiry, 3_600_000);
  };
  lookAtExpiry();
  return {
    status,
    get port() {
      return listeners.port;
    },
    ready: listeners.ready,
    reload,
    async stop() {
      watcher.stop();
      if (expiryTimer) clearTimeout(expiryTimer);
      await listeners.stop();
    },
  };
}

/**
 * HTTPS with certificates obtained over ACME: a stored one serves at once; without one, HTTPS
 * starts when the first order succeeds (plain HTTP answers the CA meanwhile).
 */
export function serveAcmeCertificate(
  input: TlsServeInput,
  deps: Deps,
  status: TlsStatus,
): TlsServing & { readonly renewal: AcmeRenewal } {
  const listeners = startListeners({ ...input, challenge: (token) => findChallengeAnswer(deps, token) }, null);
  const renewal = createAcmeRenewal(deps, status, { apply: (pair) => listeners.apply(pair) });
  renewal.start();
  // SIGHUP: look for a certificate stored by `parley tls renew` now instead of within a minute.
  const onHangup = () => {
    input.log.info({ msg: "SIGHUP received: checking the stored TLS certificate" });
    void renewal.runOnce();
  };
  process.on("SIGHUP", onHangup);
  return {
    status,
    renewal,
    get port() {
      return listeners.port;
    },
    ready: listeners.ready,
    reload: () => void renewal.runOnce(),
    async stop() {
      process.off("SIGHUP", onHangup);
      await renewal.stop();
      await listeners.stop();
    },
  };
}

function startHttps(input: TlsServeInput, pair: CertificatePair): HttpsListener {
  const { config } = input;
  const hsts = config.hstsSeconds;
  return bindOrExplain(config.host, config.port, () =>
    listenHttps({
      port: config.port,
      hostname: config.host,
      pair,
      serveOptions: input.serveOptions,
      onServer: input.onServer,
      fetch: async (request) => secureResponse(await input.fetch(request), hsts),
    }),
  );
}

/** A port that could not be bound, explained in one line. */
export class ListenError extends Error {
  override name = "ListenError";
}

/** Runs a bind; a refusal becomes one line that says what to do (ports below 1024 need a capability). */
export function bindOrExplain<T>(host: string, port: number, bind: () => T): T {
  try {
    return bind();
  } catch (error) {
    throw new ListenError(listenFailure(error, host, port));
  }
}

export function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === "EACCES" || code === "EPERM") {
    return `cannot listen on ${host}:${port}: permission denied; ports below 1024 need root or the CAP_NET_BIND_SERVICE capability (systemd AmbientCapabilities=CAP_NET_BIND_SERVICE, or setcap 'cap_net_bind_service=+ep' on the binary; docs/operations.md)`;
  }
  if (code === "EADDRINUSE") return `cannot listen on ${host}:${port}: the port is in use by another program`;
  return `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`;
}
