import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { orderCertificate } from "../../../src/http/tls/acme-order.ts";
import { createAcmeRenewal, renewalDueAtMs, retryDelayMs } from "../../../src/http/tls/acme-renewal.ts";
import { findChallengeAnswer, findLastAttempt, findStoredCertificate } from "../../../src/http/tls/acme-store.ts";
import type { CertificatePair } from "../../../src/http/tls/certificate-pair.ts";
import { redirectToHttps } from "../../../src/http/tls/http-redirect.ts";
import { createTlsStatus, renderTlsMetrics } from "../../../src/http/tls/tls-status.ts";
import { buildDeps, closeDeps, type TestDeps } from "../../helpers.ts";
import { startPebble, type Pebble } from "./pebble.ts";

const DOMAIN = "chat.parley.test";
let pebble: Pebble;
let challengeServer: Server<undefined>;
let deps: TestDeps;

beforeAll(async () => {
  pebble = await startPebble();
  deps = buildDeps({
    acmeDomains: [DOMAIN],
    acmeEmail: "ops@parley.test",
    acmeDirectory: pebble.directoryUrl,
    acmeCaCertPath: pebble.listenerCaPath,
  });
  deps.clock.set(Date.now());
  // What every instance's plain-HTTP listener does: answer from the database.
  challengeServer = Bun.serve({
    port: pebble.httpPort,
    hostname: "127.0.0.1",
    fetch: (request) =>
      redirectToHttps(request, { httpsPort: 443, challenge: (token) => findChallengeAnswer(deps, token) }),
  });
}, 30_000);

afterAll(async () => {
  challengeServer?.stop(true);
  if (deps) closeDeps(deps);
  await pebble?.stop();
});

describe("renewal policy", () => {
  test("renewal is due at two thirds of the lifetime", () => {
    expect(renewalDueAtMs({ notBeforeMs: 0, notAfterMs: 90 * 86_400_000 })).toBe(60 * 86_400_000);
  });

  test("failed orders back off from 5 minutes, doubling, to at most 6 hours", () => {
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([300_000, 600_000, 1_200_000, 21_600_000]);
  });
});

describe("against Pebble", () => {
  const applied: CertificatePair[] = [];
  let orders = 0;
  const status = createTlsStatus("acme");
  const renewal = () =>
    createAcmeRenewal(deps, status, {
      apply: (pair) => applied.push(pair),
      order: (orderDeps) => {
        orders += 1;
        return orderCertificate(orderDeps);
      },
    });

  test("the first check obtains a certificate over HTTP-01, stores it sealed and serves it", async () => {
    expect(await renewal().runOnce()).toBe("ordered");
    expect(orders).toBe(1);
    expect(applied).toHaveLength(1);
    expect(applied[0]?.dnsNames).toEqual([DOMAIN]);
    expect(applied[0]?.issuer).toContain("Pebble");
    const stored = await findStoredCertificate(deps);
    expect(stored?.domains).toEqual([DOMAIN]);
    // Sealed at rest: the raw setting shows neither the key nor the certificate.
    const raw = await deps.store.settings.findSetting("tls_acme_certificate");
    expect(raw).toStartWith("v1:");
    expect(raw).not.toContain("PRIVATE KEY");
    expect((await findLastAttempt(deps))?.ok).toBe(true);
  }, 60_000);

  test("a new process serves the stored certificate without ordering", async () => {
    const fresh = createTlsStatus("acme");
    const servedHere: CertificatePair[] = [];
    const outcome = await createAcmeRenewal(deps, fresh, {
      apply: (pair) => servedHere.push(pair),
      order: () => Promise.reject(new Error("must not order")),
    }).runOnce();
    expect(outcome).toBe("current");
    expect(servedHere.map((pair) => pair.fingerprint)).toEqual([applied[0]?.fingerprint ?? ""]);
  });

  test("at two thirds of the lifetime (by the injected clock) a new certificate replaces the old one", async () => {
    const first = applied[0]!;
    deps.clock.set(renewalDueAtMs(first) - 60_000);
    expect(await renewal().runOnce()).toBe("current");
    expect(orders).toBe(1);
    deps.clock.set(renewalDueAtMs(first) + 60_000);
    expect(await renewal().runOnce()).toBe("ordered");
    expect(orders).toBe(2);
    expect(applied).toHaveLength(2);
    expect(applied[1]?.fingerprint).not.toBe(first.fingerprint);
    expect(status.served?.fingerprint).toBe(applied[1]?.fingerprint ?? "");
    expect(status.renewals).toBe(1);
  }, 60_000);

  test("a failed renewal keeps the served certificate, backs off, and shows in the metrics", async () => {
    const serving = status.served!;
    let attempts = 0;
    const failing = createAcmeRenewal(deps, status, {
      apply: (pair) => applied.push(pair),
      order: () => {
        attempts += 1;
        return Promise.reject(new Error("urn:ietf:params:acme:error:connection: the CA could not reach the server"));
      },
    });
    deps.clock.set(renewalDueAtMs(serving) + 1_000);
    expect(await failing.runOnce()).toBe("failed");
    expect(status.served?.fingerprint).toBe(serving.fingerprint);
    expect(await failing.runOnce()).toBe("waiting");
    deps.clock.advance(retryDelayMs(1));
    expect(await failing.runOnce()).toBe("failed");
    expect(attempts).toBe(2);
    expect(await findLastAttempt(deps)).toMatchObject({ ok: false, failures: 2 });
    deps.clock.advance(retryDelayMs(1));
    expect(await failing.runOnce()).toBe("waiting");
    const metrics = renderTlsMetrics(status, deps.clock.now());
    expect(metrics).toContain("parley_tls_certificate_failures_total 2");
    expect(metrics).toContain(
      'parley_tls_certificate_last_error{reason="urn:ietf:params:acme:error:connection: the CA could not reach the server"} 1',
    );
  });
});
