import { describe, expect, test } from "bun:test";
import {
  createFairShare,
  SICK_AFTER_FAILURES,
  SICK_ENDPOINT_CONCURRENCY,
  type ClaimCandidate,
} from "../../src/scheduler/fair-share.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";

const row = (
  id: string,
  tenantId: string,
  url: string | null = `https://${tenantId}.example/hook`,
): ClaimCandidate => ({ id, tenantId, url });

describe("picking due rows fairly", () => {
  test("tenants take turns: a tenant with one due row is not queued behind another's backlog", () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 100 });
    const candidates = [...Array.from({ length: 50 }, (_, n) => row(`a${n}`, "a")), row("b0", "b"), row("c0", "c")];
    expect(fair.pick(candidates, 3).map((picked) => picked.id)).toEqual(["a0", "b0", "c0"]);
  });

  test("each tenant's rows keep their due order, round after round", () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 100 });
    const candidates = [row("a0", "a"), row("a1", "a"), row("b0", "b"), row("a2", "a"), row("b1", "b")];
    expect(fair.pick(candidates, 5).map((picked) => picked.id)).toEqual(["a0", "b0", "a1", "b1", "a2"]);
  });

  test("a tenant gets no more than its cap, counting the sends it already has in flight", () => {
    const fair = createFairShare({ tenantConcurrency: 3, endpointConcurrency: 100 });
    fair.start("a", "https://a.example/hook");
    const picked = fair.pick(
      Array.from({ length: 10 }, (_, n) => row(`a${n}`, "a")),
      10,
    );
    expect(picked.map((p) => p.id)).toEqual(["a0", "a1"]);
    fair.start("a", "https://a.example/hook");
    fair.start("a", "https://a.example/hook");
    expect(fair.fullTenants()).toEqual(["a"]);
    expect(fair.pick([row("a9", "a")], 5)).toEqual([]);
  });

  test("an endpoint gets no more than its cap across tenants; other endpoints of the same tenant still go", () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 2 });
    const shared = "https://shared.example/hook";
    const candidates = [
      row("a0", "a", shared),
      row("a1", "a", shared),
      row("b0", "b", shared),
      row("a2", "a", "https://other.example/"),
    ];
    expect(fair.pick(candidates, 10).map((p) => p.id)).toEqual(["a0", "b0", "a2"]);
  });

  test("rows whose rule was deleted are always picked (to be cancelled) and take no slot", () => {
    const fair = createFairShare({ tenantConcurrency: 1, endpointConcurrency: 1 });
    fair.start("a", "https://a.example/hook");
    expect(fair.pick([row("gone", "a", null), row("a1", "a")], 1).map((p) => p.id)).toEqual(["gone"]);
  });

  test("never more than `wanted` sends", () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 100 });
    const candidates = Array.from({ length: 30 }, (_, n) => row(`r${n}`, `t${n % 7}`));
    expect(fair.pick(candidates, 11)).toHaveLength(11);
  });
});

describe("sick endpoints", () => {
  const url = "https://hole.example/hook";

  test(`after ${SICK_AFTER_FAILURES} failures in a row an endpoint gets at most ${SICK_ENDPOINT_CONCURRENCY} in flight; one success heals it`, () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 16 });
    const many = Array.from({ length: 20 }, (_, n) => row(`r${n}`, "a", url));
    expect(fair.pick(many, 20)).toHaveLength(16);
    for (let n = 0; n < SICK_AFTER_FAILURES; n++) {
      fair.start("a", url);
      fair.finish("a", url, false);
    }
    expect(fair.isSick(url)).toBe(true);
    expect(fair.pick(many, 20)).toHaveLength(SICK_ENDPOINT_CONCURRENCY);
    for (let n = 0; n < SICK_ENDPOINT_CONCURRENCY; n++) fair.start("a", url);
    expect(fair.fullEndpoints()).toEqual([url]);
    expect(fair.isFull("a", url)).toBe(true);
    expect(fair.gauges()).toEqual({ sickEndpoints: 1, fullTenants: 0, fullEndpoints: 1 });
    fair.finish("a", url, true);
    expect(fair.isSick(url)).toBe(false);
    expect(fair.pick(many, 20)).toHaveLength(16 - (SICK_ENDPOINT_CONCURRENCY - 1));
  });

  test("failures broken by a success do not make an endpoint sick", () => {
    const fair = createFairShare({ tenantConcurrency: 100, endpointConcurrency: 16 });
    for (let n = 0; n < SICK_AFTER_FAILURES * 3; n++) {
      fair.start("a", url);
      fair.finish("a", url, n % SICK_AFTER_FAILURES !== 0);
    }
    expect(fair.isSick(url)).toBe(false);
  });

  test("counts return to zero when every send has ended", () => {
    const fair = createFairShare({ tenantConcurrency: 5, endpointConcurrency: 5 });
    fair.start("a", url);
    fair.start("b", url);
    fair.finish("a", url, true);
    fair.finish("b", url, true);
    expect(fair.inFlightForTenant("a")).toBe(0);
    expect(fair.inFlightForEndpoint(url)).toBe(0);
    expect(fair.fullTenants()).toEqual([]);
    expect(fair.fullEndpoints()).toEqual([]);
  });
});

describe("the caps' settings", () => {
  test("default to 64 per tenant and 16 per endpoint, and refuse values outside 1–10,000", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ tenantConcurrency: 64, endpointConcurrency: 16 });
    expect(loadConfig({ PARLEY_TENANT_CONCURRENCY: "8", PARLEY_ENDPOINT_CONCURRENCY: "2" })).toMatchObject({
      tenantConcurrency: 8,
      endpointConcurrency: 2,
    });
    expect(() => loadConfig({ PARLEY_ENDPOINT_CONCURRENCY: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_TENANT_CONCURRENCY: "lots" })).toThrow(ConfigError);
  });
});
