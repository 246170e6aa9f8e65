import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, startServer, stopProcess, type Sandbox } from "./binary.ts";
import { eventually, freePort, peerCertificate, startTlsServer, type RunningTlsBinary } from "./tls-binary.ts";
import { makeSelfSigned, type MadePair } from "../http/tls/openssl.ts";

let sandbox: Sandbox;
let server: RunningTlsBinary;
let first: MadePair;
let second: MadePair;
let httpPort: number;
const certPath = () => join(sandbox.dir, "live.crt");
const keyPath = () => join(sandbox.dir, "live.key");

/** Writes a pair the way renewal tools do: new files renamed over the served ones. */
function install(pair: { cert: string; key: string }) {
  writeFileSync(`${keyPath()}.new`, pair.key);
  writeFileSync(`${certPath()}.new`, pair.cert);
  renameSync(`${keyPath()}.new`, keyPath());
  renameSync(`${certPath()}.new`, certPath());
}

beforeAll(async () => {
  sandbox = createSandbox({ PARLEY_JWT_SECRET: "tls-e2e-secret-0123456789abcdef-0123456789" });
  first = await makeSelfSigned(sandbox.dir, "first.test");
  second = await makeSelfSigned(sandbox.dir, "second.test");
  copyFileSync(first.certPath, certPath());
  copyFileSync(first.keyPath, keyPath());
  httpPort = freePort();
  server = await startTlsServer(sandbox, {
    PARLEY_TLS_CERT: certPath(),
    PARLEY_TLS_KEY: keyPath(),
    PARLEY_HTTP_PORT: String(httpPort),
    PARLEY_HSTS: "2d",
  });
});

afterAll(async () => {
  if (server) await stopProcess(server.process);
  sandbox?.cleanup();
});

const https = (path: string, ca: string) =>
  fetch(`https://127.0.0.1:${server.port}${path}`, { tls: { ca, serverName: "localhost" } });

test("the binary serves the operator's certificate with HSTS", async () => {
  const peer = await peerCertificate(server.port, "localhost", first.cert);
  expect(peer).toMatchObject({ subject: "first.test", authorized: true });
  const ready = await https("/readyz", first.cert);
  expect(ready.status).toBe(200);
  expect(ready.headers.get("strict-transport-security")).toBe("max-age=172800");
  expect(server.output()).not.toContain("not on HTTPS");
});

test("plain HTTP answers 308 to the same path on https", async () => {
  const response = await fetch(`http://127.0.0.1:${httpPort}/api/v1/leads?limit=2`, {
    redirect: "manual",
    headers: { host: "chat.example.com:8080" },
  });
  expect(response.status).toBe(308);
  expect(response.headers.get("location")).toBe(`https://chat.example.com:${server.port}/api/v1/leads?limit=2`);
});

test("a pair replaced on disk is served to the next connection; a bad one keeps the last good one", async () => {
  install(second);
  expect(
    await eventually(
      async () => (await peerCertificate(server.port, "localhost", second.cert)).subject === "second.test",
    ),
  ).toBe(true);
  expect((await peerCertificate(server.port, "localhost", second.cert)).authorized).toBe(true);

  install({ cert: first.cert, key: second.key });
  expect(
    await eventually(async () =>
      /parley_tls_certificate_last_error\{reason="[^"]*the key does not belong[^"]*"\} 1/.test(
        await (await https("/metrics", second.cert)).text(),
      ),
    ),
  ).toBe(true);
  expect((await peerCertificate(server.port, "localhost", second.cert)).subject).toBe("second.test");
  expect(server.output()).toContain("TLS certificate not reloaded; the previous one keeps serving");
});

test("SIGHUP reads the files again", async () => {
  writeFileSync(keyPath(), first.key);
  process.kill(server.process.pid, "SIGHUP");
  expect(
    await eventually(async () => server.output().includes("SIGHUP received: reading the TLS certificate files again")),
  ).toBe(true);
  expect(
    await eventually(
      async () => (await peerCertificate(server.port, "localhost", first.cert)).subject === "first.test",
    ),
  ).toBe(true);
});

test("a mismatched pair at start-up exits with code 2 and one line", async () => {
  const mismatched = join(sandbox.dir, "mismatched.key");
  writeFileSync(mismatched, second.key);
  const result = sandbox.run(["serve", "--host", "127.0.0.1", "--port", "0"], {
    env: { PARLEY_TLS_CERT: first.certPath, PARLEY_TLS_KEY: mismatched, PARLEY_HTTP_PORT: String(freePort()) },
  });
  expect(result.code).toBe(2);
  expect(result.err.trim().split("\n")).toEqual([
    `parley: PARLEY_TLS_CERT/PARLEY_TLS_KEY: ${first.certPath} + ${mismatched}: the key does not belong to the certificate (CN=first.test)`,
  ]);
});

test("a plain-HTTP port already in use stops start-up with one line naming it", () => {
  const holder = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const result = sandbox.run(["serve", "--host", "127.0.0.1", "--port", "0"], {
      env: {
        PARLEY_TLS_CERT: first.certPath,
        PARLEY_TLS_KEY: first.keyPath,
        PARLEY_HTTP_PORT: String(holder.port),
        PARLEY_DB: join(sandbox.dir, "other.db"),
      },
    });
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(
      `parley: cannot listen on 127.0.0.1:${holder.port}: the port is in use by another program`,
    );
  } finally {
    holder.stop(true);
  }
});

test("without TLS the binary serves plain HTTP and says once that it is not on HTTPS", async () => {
  const plain = await startServer(sandbox, [], { PARLEY_DB: join(sandbox.dir, "plain.db") });
  try {
    expect(plain.baseUrl).toStartWith("http://");
    const ready = await fetch(`${plain.baseUrl}/readyz`);
    expect(ready.headers.get("strict-transport-security")).toBeNull();
    expect(
      plain
        .output()
        .split("\n")
        .filter((line) => line.includes("The server itself is not on HTTPS")),
    ).toHaveLength(1);
  } finally {
    await stopProcess(plain.process);
  }
});
