import type { Server } from "bun";
import type { CertificatePair } from "./certificate-pair.ts";

type Fetch = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

export interface HttpsListenerOptions {
  readonly port: number;
  readonly hostname: string;
  readonly pair: CertificatePair;
  readonly fetch: Fetch;
  /** Everything else Bun.serve is given (body limit, development mode). */
  readonly serveOptions: { readonly maxRequestBodySize: number; readonly development: boolean };
  /** Told of each new server so request handlers see the one that accepts connections. */
  readonly onServer: (server: Server<undefined>) => void;
}

export interface HttpsListener {
  readonly port: number;
  readonly server: Server<undefined>;
  /** Serves `pair` to every new connection from now on; open ones finish on the old one. */
  replace(pair: CertificatePair): void;
  stop(): Promise<void>;
}

/**
 * The HTTPS server. Bun.serve's `reload` swaps handlers but keeps the TLS context it started
 * with, so a new certificate means a new server: it binds the same port (SO_REUSEPORT, set on
 * both), then the old one stops accepting and lets every open request and stream finish
 * (idle keep-alive connections are closed, as an idle timeout would; clients reconnect and get
 * the new certificate). Another process cannot join the port: it is probed without
 * SO_REUSEPORT before the first bind.
 */
export function listenHttps(options: HttpsListenerOptions): HttpsListener {
  probeExclusive(options.hostname, options.port);
  const serve = (pair: CertificatePair, port: number) =>
    Bun.serve<undefined>({
      ...options.serveOptions,
      port,
      hostname: options.hostname,
      reusePort: true,
      idleTimeout: 30,
      tls: { cert: pair.cert, key: pair.key },
      fetch: options.fetch,
    });
  let server = serve(options.pair, options.port);
  const port = server.port ?? options.port;
  options.onServer(server);
  const retired: Promise<void>[] = [];
  return {
    port,
    get server() {
      return server;
    },
    replace(pair) {
      const next = serve(pair, port);
      const previous = server;
      server = next;
      options.onServer(next);
      retired.push(previous.stop(false));
    },
    async stop() {
      await Promise.all([server.stop(false), ...retired]);
    },
  };
}

/** Fails (EADDRINUSE) when anything listens on the port, even another SO_REUSEPORT server. */
function probeExclusive(hostname: string, port: number): void {
  if (port === 0) return;
  const probe = Bun.listen({ hostname, port, exclusive: true, socket: { data() {} } });
  probe.stop(true);
}
