import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox, stopProcess, type Sandbox } from "./binary.ts";
import { openTestDatabase, postgresSource, type TestDatabase } from "./cluster-helpers.ts";
import { eventually, freePort, startTlsServer, type RunningTlsBinary } from "./tls-binary.ts";
import { startPebble, type Pebble } from "../http/tls/pebble.ts";
import { connect } from "node:tls";

/**
 * Two compiled servers on one PostgreSQL database with ACME: exactly one orders the
 * certificate (under the ordering lock), both serve it. Only the first listens on the port
 * Pebble validates; whichever orders, the answer is found in the database.
 */
const DOMAIN = "chat.parley.test";
const source = postgresSource();
const inCi = process.env.CI === "true";

if (source.kind === "none" && inCi) {
  describe("ACME on two instances sharing PostgreSQL", () => {
    test("PostgreSQL is available (required under CI=true)", () => {
      throw new Error(`CI=true but ${source.reason}`);
    });
  });
}

/** The SHA-256 fingerprint of the leaf a new connection is shown, verified against `ca`. */
function servedFingerprint(port: number, ca: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: DOMAIN, ca }, () => {
      resolve(socket.authorized ? (socket.getPeerCertificate().fingerprint256 ?? null) : null);
      socket.end();
    });
    socket.on("error", reject);
  });
}

describe.skipIf(source.kind === "none")("ACME on two instances sharing PostgreSQL", () => {
  let pebble: Pebble;
  let database: TestDatabase;
  let sandbox: Sandbox;
  const servers: RunningTlsBinary[] = [];
  const ports = [freePort(), freePort()];

  beforeAll(async () => {
    pebble = await startPebble();
    database = await openTestDatabase();
    sandbox = createSandbox({ PARLEY_DB: database.url });
    const env = (httpPort: number) => ({
      PARLEY_ACME_DOMAINS: DOMAIN,
      PARLEY_ACME_DIRECTORY: pebble.directoryUrl,
      PARLEY_ACME_CA_CERT: pebble.listenerCaPath,
      PARLEY_HTTP_PORT: String(httpPort),
    });
    // Migrate first: two instances then start at the same moment on a ready database.
    expect(sandbox.run(["migrate"]).code).toBe(0);
    servers.push(
      ...(await Promise.all([
        startTlsServer(sandbox, env(pebble.httpPort), { port: ports[0] }),
        startTlsServer(sandbox, env(freePort()), { port: ports[1] }),
      ])),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => stopProcess(server.process)));
    sandbox?.cleanup();
    await database?.drop();
    await pebble?.stop();
  });

  test("one instance orders, both serve the one certificate", async () => {
    const root = await pebble.root();
    const both = async () => Promise.all(ports.map((port) => servedFingerprint(port!, root).catch(() => null)));
    expect(await eventually(async () => (await both()).every((fingerprint) => fingerprint !== null), 60_000)).toBe(
      true,
    );
    const [first, second] = await both();
    expect(first).toBe(second!);
    const orders = servers.map(
      (server) =>
        server
          .output()
          .split("\n")
          .filter((line) => line.includes('"msg":"ordering a TLS certificate"')).length,
    );
    expect(orders.reduce((sum, count) => sum + count, 0)).toBe(1);
  }, 90_000);
});
