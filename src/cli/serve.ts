import { createApp } from "../http/app.ts";
import { createAppDeps } from "../http/deps.ts";
import { SERVE_OPTIONS } from "../http/serve-options.ts";
import { DeliveryScheduler } from "../scheduler/scheduler.ts";
import { startSendThread } from "../scheduler/send-thread.ts";
import { describeLocation } from "../db/open-store.ts";
import { startCheckpointThread } from "../db/sqlite/checkpoint-thread.ts";
import { acquireServerLock, serverLockPath } from "../db/server-lock.ts";
import { AppError } from "../lib/app-error.ts";
import { settleWhatsappReplies } from "../integrations/whatsapp-send.ts";
import { seedDemo, type DemoSeed } from "./seed-demo.ts";
import { createTlsStatus } from "../http/tls/tls-status.ts";
import {
  ListenError,
  listenFailure,
  readStartupPair,
  serveAcmeCertificate,
  serveOwnCertificate,
  type TlsServing,
} from "../http/tls/serve-tls.ts";
import { findUsableCertificate } from "../http/tls/acme-renewal.ts";
import type { Server } from "bun";
import { parseCommandArgs } from "./args.ts";
import { openCliDeps, type CliDeps } from "./context.ts";
import type { CliIo } from "./io.ts";

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** Bun's development mode: off whatever NODE_ENV says (see SERVE_OPTIONS). */
  readonly development: boolean;
  /** Present while the server itself speaks HTTPS. */
  readonly tls: TlsServing | null;
  /** Resolves once it serves (with ACME and no stored certificate: once the first one is issued). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

export function startServer(deps: CliDeps): RunningServer {
  // A pair that cannot be served stops start-up before anything else starts (exit 2).
  const ownPair = deps.config.tlsCertPath ? readStartupPair(deps.config, deps.clock.now()) : null;
  // Two servers on one SQLite file would each run a scheduler and keep their own rate limits.
  // On PostgreSQL several instances are the point (docs/scale-out.md): claims, limits and
  // housekeeping are shared through the database.
  const lock = deps.opened.kind === "postgres" ? { release: () => {} } : acquireServerLock(deps.config.dbPath);
  if (!lock) {
    throw new AppError(
      "already_serving",
      409,
      `another parley server is already serving ${deps.config.dbPath} (lock: ${serverLockPath(deps.config.dbPath)}); stop it first or use another --db`,
    );
  }
  // Start-up (migrations) may wait for a CLI's lock inside SQLite; serving waits on timers
  // instead, for PARLEY_WRITE_WAIT: see neverWaitInsideSqlite (src/db/write-lock.ts).
  deps.store.storage.neverWaitForLocks(deps.config.writeWaitMs);
  // Sends on the second core while HTTP requests wait here (else here: cheaper); claims and
  // records stay here, on the store's connection.
  let httpServer: { readonly server: { pendingRequests: number } | null } | undefined;
  const sendThread = startSendThread(deps.log, {
    mainThreadBusy: () => (httpServer?.server?.pendingRequests ?? 0) > 0,
  });
  // SQLite's WAL is copied into the file on a third thread, so the copy never stops requests.
  // The server's connection finishes a caught-up checkpoint itself, so the WAL starts over.
  const checkpointThread =
    deps.opened.kind === "sqlite" && deps.config.dbPath !== ":memory:"
      ? startCheckpointThread(deps.config.dbPath, deps.log, {
          finishOnServer: () => deps.store.maintenance.checkpoint(),
        })
      : null;
  const scheduler = new DeliveryScheduler(deps, {
    send: (input) => sendThread.send(input),
    checkpointElsewhere: checkpointThread !== null,
  });
  const tlsStatus = ownPair
    ? createTlsStatus("files", ownPair)
    : deps.config.acmeDomains.length > 0
      ? createTlsStatus("acme")
      : null;
  const app = createApp({ ...createAppDeps(deps, scheduler.metrics), tls: tlsStatus });
  let tlsServing: TlsServing | null = null;
  try {
    const tlsInput = {
      config: deps.config,
      clock: deps.clock,
      log: deps.log,
      fetch: (request: Request) => app.fetch(request),
      serveOptions: SERVE_OPTIONS,
      onServer: (next: Server<undefined>) => (app.server = next),
    };
    if (tlsStatus) {
      tlsServing =
        tlsStatus.source === "files"
          ? serveOwnCertificate(tlsInput, tlsStatus)
          : serveAcmeCertificate(tlsInput, deps, tlsStatus);
    } else {
      app.listen({ port: deps.config.port, hostname: deps.config.host, ...SERVE_OPTIONS });
    }
  } catch (error) {
    lock.release();
    void sendThread.stop();
    void checkpointThread?.stop();
    throw new AppError(
      "port_in_use",
      409,
      error instanceof ListenError ? error.message : listenFailure(error, deps.config.host, deps.config.port),
    );
  }
  if (!tlsServing && !app.server) throw new Error("the HTTP server did not start");
  // The app's server changes when a renewed certificate is put in service.
  httpServer = app;
  // With ACME and no stored certificate HTTPS listens later: the port is read when asked.
  const portNow = () => tlsServing?.port ?? app.server?.port ?? deps.config.port;
  scheduler.start();
  let stopping: Promise<void> | null = null;
  const scheme = tlsServing ? "https" : "http";
  const host = deps.config.host === "0.0.0.0" ? "localhost" : deps.config.host;
  return {
    get url() {
      return `${scheme}://${host}:${portNow()}`;
    },
    get port() {
      return portNow();
    },
    development: app.server?.development ?? SERVE_OPTIONS.development,
    tls: tlsServing,
    ready: tlsServing?.ready ?? Promise.resolve(),
    stop() {
      // Stop accepting requests (no new events), let the sends in flight finish and be
      // recorded (each bounded by the delivery timeout), then close the database.
      // WhatsApp replies already queued are sent too (each bounded by its send timeout): the
      // visitor's message is stored, and a reply lost at shutdown would never be sent.
      stopping ??= (tlsServing ? tlsServing.stop() : app.stop())
        .then(() =>
          Promise.all([
            scheduler.stop().then(() => sendThread.stop()),
            settleWhatsappReplies(),
            checkpointThread?.stop(),
          ]),
        )
        .then(() => deps.opened.close())
        .finally(() => lock.release());
      return stopping;
    },
  };
}

function demoLines(seed: DemoSeed, baseUrl: string, cli: string): string {
  if (!seed.created) {
    return `Demo tenant ${seed.tenantId} already exists (login ${seed.email}; its password was printed on the first start — reset it with: ${cli} user password --email ${seed.email}).`;
  }
  return [
    "Demo tenant seeded:",
    `  tenant   ${seed.tenantId}`,
    `  login    ${seed.email} / ${seed.password}`,
    `  API key  ${seed.apiKey}`,
    "These secrets are shown only now.",
    "Log in:",
    `  curl -s -X POST ${baseUrl}/api/v1/auth/token -H 'content-type: application/json' -d '{"email":"${seed.email}","password":"${seed.password}"}'`,
    "Talk to the bot as a website visitor (this visitor token is valid 24 hours; POST /api/v1/widget/session gives a new one):",
    `  curl -s -X POST ${baseUrl}/api/v1/chatbot/message -H "Authorization: Bearer ${seed.visitorToken}" -H 'content-type: application/json' -d '{"tenant_id":"${seed.tenantId}","message":"Can I book a cleaning tomorrow at 10am?"}'`,
    "Send its events to a webhook receiver (put your receiver's URL; one on this machine or your network needs PARLEY_ALLOW_PRIVATE_WEBHOOKS=true on the server):",
    `  curl -s -X POST ${baseUrl}/api/v1/webhooks/rules-engine/rules -H "X-API-Key: ${seed.apiKey}" -H 'content-type: application/json' -d '{"name":"crm","event":"lead.created","url":"https://example.com/parley-hook","secret":"change-me-0123456789","active":true}'`,
  ].join("\n");
}

/** Where a new user goes next: the demo page, the admin page (and what it asks for), the API reference. */
function pageLines(baseUrl: string, seed: DemoSeed | null, cli: string): string {
  const key = seed?.created
    ? "the login above, or the API key"
    : `your e-mail and password, or a tenant API key — ${cli} apikey create --tenant ${seed?.tenantId ?? "ten_…"}`;
  return [
    ...(seed ? [`  demo page      ${baseUrl}/   (the demo clinic's chat widget)`] : []),
    `  admin page     ${baseUrl}/admin   (sign in with ${key})`,
    `  API reference  ${baseUrl}/docs`,
  ].join("\n");
}

export async function serveCommand(
  argv: string[],
  io: CliIo,
  onStarted?: (server: RunningServer) => void,
): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    port: { type: "string", short: "p" },
    host: { type: "string" },
    demo: { type: "boolean" },
  });
  const deps = await openCliDeps(io, { db: values.db, port: values.port, host: values.host, demo: values.demo });
  if (deps.config.allowPrivateWebhooks) {
    io.err(
      "parley: warning: PARLEY_ALLOW_PRIVATE_WEBHOOKS=true: webhooks, knowledge URL imports and model-provider calls may reach loopback and private addresses (the SSRF protection is off); use it only for local development",
    );
  }
  // Seeded before the server listens (it awaits password hashing): from `listen` to the end of
  // the banner nothing awaits, so no request can be logged before the banner is printed.
  const seed = deps.config.demo ? await seedDemo(deps) : null;
  const acme = deps.config.acmeDomains.length > 0;
  const stored = acme ? await findUsableCertificate(deps, deps.clock.now()) : null;
  // Commands in the banner work as printed: under npm (`npm start`) the CLI is `npx parley`.
  const cli = io.env.npm_execpath ? "npx parley" : "parley";
  let server: ReturnType<typeof startServer>;
  try {
    server = startServer(deps);
  } catch (error) {
    // The demo's password and key exist only in this process: a start that cannot listen (the
    // port taken) must still show them, or the next start finds the demo with no way in.
    if (seed?.created) io.out(demoLines(seed, deps.config.publicUrl, cli));
    throw error;
  }
  // Handlers go in before the address is printed: whoever reads it may signal at once.
  const stopped = new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      io.out(`${signal} received, shutting down`);
      void server.stop().then(resolve);
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  if (acme && !stored) {
    io.out(
      `Obtaining a TLS certificate for ${deps.config.acmeDomains.join(", ")} from ${deps.config.acmeDirectory}; the CA checks http://${deps.config.acmeDomains[0]}:${deps.config.httpPort}/.well-known/acme-challenge/… (HTTPS starts once it is issued)`,
    );
  }
  if ((await Promise.race([server.ready.then(() => "ready"), stopped.then(() => "stopped")])) === "stopped") return 0;
  const baseUrl =
    deps.config.publicUrl === `${server.tls ? "https" : "http"}://localhost:${deps.config.port}`
      ? server.url
      : deps.config.publicUrl;
  if (seed) io.out(demoLines(seed, baseUrl, cli));
  io.out(`Parley listening on ${server.url} (database ${describeLocation(deps.config.dbPath)})`);
  io.out(pageLines(baseUrl, seed, cli));
  if (!server.tls) {
    io.out(
      "The server itself is not on HTTPS: serve it behind an HTTPS proxy, or set PARLEY_ACME_DOMAINS or PARLEY_TLS_CERT and PARLEY_TLS_KEY (docs/operations.md, HTTPS).",
    );
  }
  // Bun's fetch runs at most BUN_CONFIG_MAX_HTTP_REQUESTS (default 256) requests at once and
  // reads it only at process start: more deliveries in flight than that just queue inside Bun.
  const fetchLimit = Number(io.env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? "256") || 256;
  if (deps.config.deliveryConcurrency > fetchLimit) {
    io.err(
      `parley: note: PARLEY_DELIVERY_CONCURRENCY=${deps.config.deliveryConcurrency} but Bun sends at most ${fetchLimit} requests at once; start with BUN_CONFIG_MAX_HTTP_REQUESTS=${deps.config.deliveryConcurrency} for full webhook throughput`,
    );
  }
  onStarted?.(server);

  await stopped;
  return 0;
}
