import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../../src/http/app.ts";
import { createAppDeps } from "../../../src/http/deps.ts";
import { parseCertificatePair } from "../../../src/http/tls/certificate-pair.ts";
import { createTlsStatus, expiryWarning, type TlsStatus } from "../../../src/http/tls/tls-status.ts";
import { buildDeps, closeDeps, type TestDeps } from "../../helpers.ts";
import { certificateDir, makeSelfSigned } from "./openssl.ts";

const dir = certificateDir();
let deps: TestDeps;
let status: TlsStatus;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  const made = await makeSelfSigned(dir.dir, "expiring.test", { days: 30 });
  deps = buildDeps();
  const pair = parseCertificatePair(made.cert, made.key, deps.clock.now());
  deps.clock.set(pair.notBeforeMs);
  status = createTlsStatus("files", pair);
  app = createApp({ ...createAppDeps(deps), tls: status });
});
afterAll(() => {
  closeDeps(deps);
  dir.cleanup();
});

const get = (path: string) => app.handle(new Request(`http://localhost${path}`));

test("/readyz shows the certificate only once it expires within 7 days, and stays ready", async () => {
  expect(await (await get("/readyz")).json()).toEqual({ status: "ready" });
  deps.clock.advance(24 * 86_400_000);
  const response = await get("/readyz");
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    status: "ready",
    tls: { certificate_expires_at: new Date(status.served!.notAfterMs).toISOString(), certificate_expires_in_days: 6 },
  });
});

test("/metrics gives the seconds until expiry by the injected clock", async () => {
  const text = await (await get("/metrics")).text();
  const seconds = Number(/^parley_tls_certificate_expiry_seconds (\d+)$/m.exec(text)?.[1]);
  expect(seconds).toBe(Math.floor((status.served!.notAfterMs - deps.clock.now()) / 1000));
  expect(text).toContain('parley_tls_certificate_last_error{reason=""} 0');
});

test("without TLS the routes say nothing of certificates", async () => {
  const plain = createApp(createAppDeps(deps));
  expect(await (await plain.handle(new Request("http://localhost/metrics"))).text()).not.toContain("parley_tls_");
});

test("an expiring certificate is logged once a day, not before its last 7 days", () => {
  const lines: Record<string, unknown>[] = [];
  const warn = expiryWarning(status, { info: () => {}, error: (fields) => lines.push(fields) });
  const notAfter = status.served!.notAfterMs;
  warn(notAfter - 8 * 86_400_000);
  expect(lines).toHaveLength(0);
  warn(notAfter - 6 * 86_400_000);
  warn(notAfter - 6 * 86_400_000 + 3_600_000);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    msg: "TLS certificate expires soon and is not renewed yet",
    certificate_expires_in_days: 6,
  });
  warn(notAfter - 5 * 86_400_000);
  expect(lines).toHaveLength(2);
});
