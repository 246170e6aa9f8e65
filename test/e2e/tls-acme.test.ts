import { afterAll, beforeAll, expect, test } from "bun:test";
import { createSandbox, stopProcess, type Sandbox } from "./binary.ts";
import { eventually, freePort, peerCertificate, startTlsServer, type RunningTlsBinary } from "./tls-binary.ts";
import { startPebble, type Pebble } from "../http/tls/pebble.ts";

/**
 * The compiled binary against Let's Encrypt's test CA (Debian's pebble): pebble-challtestsrv
 * points the test domain at 127.0.0.1 and Pebble validates HTTP-01 on PARLEY_HTTP_PORT.
 */
const DOMAIN = "chat.parley.test";
let pebble: Pebble;
let sandbox: Sandbox;
let server: RunningTlsBinary | null = null;
let root = "";
const httpsPort = freePort();

const acmeEnv = () => ({
  PARLEY_ACME_DOMAINS: DOMAIN,
  PARLEY_ACME_EMAIL: "ops@parley.test",
  PARLEY_ACME_DIRECTORY: pebble.directoryUrl,
  PARLEY_ACME_CA_CERT: pebble.listenerCaPath,
  PARLEY_HTTP_PORT: String(pebble.httpPort),
});

beforeAll(async () => {
  pebble = await startPebble();
  sandbox = createSandbox({ PARLEY_JWT_SECRET: "tls-acme-e2e-secret-0123456789abcdef-012345" });
  server = await startTlsServer(sandbox, acmeEnv(), { port: httpsPort });
  root = await pebble.root();
}, 90_000);

afterAll(async () => {
  if (server) await stopProcess(server.process);
  sandbox?.cleanup();
  await pebble?.stop();
});

const ordersIn = (text: string) =>
  text.split("\n").filter((line) => line.includes('"msg":"ordering a TLS certificate"')).length;

test("the binary obtains a certificate over HTTP-01 and serves the chain Pebble's root verifies, for the domain's SNI", async () => {
  const peer = await peerCertificate(httpsPort, DOMAIN, root);
  expect(peer.authorizationError).toBeNull();
  expect(peer.authorized).toBe(true);
  expect(peer.issuer).toContain("Pebble");
  expect(server!.output()).toContain(`Obtaining a TLS certificate for ${DOMAIN}`);
  expect(ordersIn(server!.output())).toBe(1);
});

test("HTTPS responses carry HSTS for a year; plain HTTP answers 308 to https", async () => {
  const ready = await fetch(`https://127.0.0.1:${httpsPort}/readyz`, { tls: { ca: root, serverName: DOMAIN } });
  expect(ready.status).toBe(200);
  expect(ready.headers.get("strict-transport-security")).toBe("max-age=31536000");
  const plain = await fetch(`http://127.0.0.1:${pebble.httpPort}/admin`, {
    redirect: "manual",
    headers: { host: DOMAIN },
  });
  expect(plain.status).toBe(308);
  expect(plain.headers.get("location")).toBe(`https://${DOMAIN}:${httpsPort}/admin`);
});

test("parley tls status names the domain, the issuer, the expiry and the last attempt", () => {
  const result = sandbox.run(["tls", "status", "--json"], { env: acmeEnv() });
  expect(result.code).toBe(0);
  const view = JSON.parse(result.out);
  expect(view).toMatchObject({ source: "acme", domains: [DOMAIN], last_attempt: { ok: true, failures: 0 } });
  expect(view.issuer).toContain("Pebble");
  expect(Date.parse(view.not_after)).toBeGreaterThan(Date.now());
});

test("a restart serves the stored certificate without a new order", async () => {
  const before = await fetchPeerFingerprint(httpsPort, root);
  await stopProcess(server!.process);
  server = await startTlsServer(sandbox, acmeEnv(), { port: httpsPort });
  expect(await eventually(async () => (await peerCertificate(httpsPort, DOMAIN, root)).authorized)).toBe(true);
  expect(ordersIn(server.output())).toBe(0);
  expect(server.output()).not.toContain("Obtaining a TLS certificate");
  expect(await fetchPeerFingerprint(httpsPort, root)).toBe(before);
}, 60_000);

test("parley tls renew orders a new certificate, answered by the running server; SIGHUP serves it at once", async () => {
  const fingerprint = async () => (await fetchPeerFingerprint(httpsPort, root)) ?? "";
  const before = await fingerprint();
  const renewed = sandbox.run(["tls", "renew"], { env: acmeEnv() });
  expect(renewed.err).toBe("");
  expect(renewed.code).toBe(0);
  expect(renewed.out).toContain(`renewed: ${DOMAIN} until`);
  process.kill(server!.process.pid, "SIGHUP");
  expect(await eventually(async () => (await fingerprint()) !== before)).toBe(true);
}, 60_000);

async function fetchPeerFingerprint(port: number, ca: string): Promise<string | null> {
  const { connect } = await import("node:tls");
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: DOMAIN, ca }, () => {
      resolve(socket.getPeerCertificate().fingerprint256 ?? null);
      socket.end();
    });
    socket.on("error", reject);
  });
}
