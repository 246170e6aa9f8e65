import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { cli } from "../../cli/cli-helpers.ts";
import { certificateDir, makeSelfSigned, type MadePair } from "./openssl.ts";

// @sqlite-only: runs the CLI on a SQLite file of its own; what it reads is ACME's settings, which test/http/tls/acme-renewal.test.ts runs over both stores
const dir = certificateDir();
let pair: MadePair;
beforeAll(async () => {
  pair = await makeSelfSigned(dir.dir, "status.test", { days: 10 });
});
afterAll(() => dir.cleanup());

const env = (extra: Record<string, string> = {}) => ({
  PARLEY_DB: join(dir.dir, "parley.db"),
  PARLEY_JWT_SECRET: "tls-cli-test-secret-0123456789abcdef-0123456789",
  ...extra,
});

test("tls status without TLS settings is a usage error that says what to set", async () => {
  const result = await cli(["tls", "status"], { env: env() });
  expect(result.code).toBe(2);
  expect(result.err).toContain("TLS is off: set PARLEY_ACME_DOMAINS, or PARLEY_TLS_CERT and PARLEY_TLS_KEY");
});

test("tls status with own files shows their names, issuer and expiry", async () => {
  const result = await cli(["tls", "status", "--json"], {
    env: env({ PARLEY_TLS_CERT: pair.certPath, PARLEY_TLS_KEY: pair.keyPath }),
  });
  expect(result.code).toBe(0);
  const view = JSON.parse(result.out);
  expect(view).toMatchObject({
    source: "files",
    domains: ["localhost"],
    issuer: "CN=status.test",
    renewal_due: null,
    last_attempt: null,
  });
  expect(Date.parse(view.not_after) - Date.now()).toBeGreaterThan(9 * 86_400_000);
});

test("tls renew with own files says who renews them", async () => {
  const result = await cli(["tls", "renew"], {
    env: env({ PARLEY_TLS_CERT: pair.certPath, PARLEY_TLS_KEY: pair.keyPath }),
  });
  expect(result.code).toBe(2);
  expect(result.err).toContain("own certificate files are renewed by the tool that makes them");
});

test("tls status with ACME and nothing ordered yet says so", async () => {
  const result = await cli(["tls", "status"], { env: env({ PARLEY_ACME_DOMAINS: "chat.example.com" }) });
  expect(result.code).toBe(0);
  expect(result.out).toContain("domains       chat.example.com");
  expect(result.out).toContain("issuer        (no certificate yet)");
  expect(result.out).toContain("last attempt  none");
});

test("an unknown tls action is a usage error", async () => {
  expect((await cli(["tls", "rotate"], { env: env() })).code).toBe(2);
});
