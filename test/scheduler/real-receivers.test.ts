import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Server } from "bun";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { getDelivery } from "../../src/webhooks/deliveries.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps } from "../helpers.ts";

const SECRET = "receiver-secret-0123456789";

interface Received {
  path: string;
  headers: Headers;
  body: string;
}

const received: Received[] = [];
let server: Server<undefined>;
let refusedPort: number;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, headers: request.headers, body: await request.text() });
      if (path === "/ok") return new Response("thanks", { status: 200 });
      if (path === "/accepted") return new Response(null, { status: 202 });
      if (path === "/error") return new Response("boom", { status: 500 });
      if (path === "/redirect") return new Response(null, { status: 302, headers: { location: "/ok" } });
      if (path === "/hang") return new Promise<Response>(() => {});
      return new Response("?", { status: 404 });
    },
  });
  // A port that was just free: nothing listens there.
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  refusedPort = probe.port ?? 1;
  probe.stop(true);
});
afterAll(() => server.stop(true));

/** Delivers one lead.created to `url` through the real scheduler and sender; returns its log. */
async function deliverTo(url: string) {
  const deps = buildDeps({ allowPrivateWebhooks: true, deliveryTimeoutMs: 300 });
  // Real time here: the standardwebhooks library refuses timestamps more than 5 minutes off its own clock.
  deps.clock.set(Date.now());
  const tenantId = (await createTenant(deps, { name: "Receivers" })).id;
  await createRule(deps, tenantId, { name: "r", event: "lead.created", url, secret: SECRET, active: true });
  const { deliveryIds } = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, {
      tenantId,
      event: "lead.created",
      data: { lead_id: "lead_9", name: "Ana Lopez" },
      confidence: 0.92,
    }),
  );
  await new DeliveryScheduler(deps).runOnce();
  const log = await getDelivery(deps, tenantId, deliveryIds[0] ?? "");
  closeDeps(deps);
  return log;
}

/** Written from the spec text alone; shares no code with src/webhooks/sign.ts. */
function specVerifier(secret: string, rawBody: string, header: string | null): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const cut = rawBody.lastIndexOf(',"signature"');
  const expected = Buffer.from(
    createHmac("sha256", secret)
      .update(`${rawBody.slice(0, cut)}}`)
      .digest("hex"),
  );
  const got = Buffer.from(header.slice(7));
  return expected.length === got.length && timingSafeEqual(expected, got);
}

describe("deliveries to real local receivers", () => {
  test("a 200 succeeds; the request is signed so an independent verifier and the standardwebhooks library accept it", async () => {
    const log = await deliverTo(`http://127.0.0.1:${server.port}/ok`);
    expect(log.status).toBe("succeeded");
    expect(log.attempt_log[0]).toMatchObject({ ok: true, status_code: 200, error: null, response_excerpt: "thanks" });

    const request = received.findLast((entry) => entry.path === "/ok");
    if (!request) throw new Error("the receiver got nothing");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("x-service-event")).toBe("lead.created");
    expect(request.headers.get("x-service-attempt")).toBe("1");
    expect(request.headers.get("webhook-id")).toBe(log.webhook_id);
    const body = JSON.parse(request.body);
    expect(Object.keys(body)).toEqual(["event", "webhook_id", "timestamp", "data", "signature"]);
    expect(body.data).toEqual({ lead_id: "lead_9", name: "Ana Lopez", confidence: 0.92 });
    expect(body.signature).toBe(request.headers.get("x-service-signature"));

    expect(specVerifier(SECRET, request.body, request.headers.get("x-service-signature"))).toBe(true);
    const headers = Object.fromEntries(request.headers.entries());
    expect(() => new Webhook(Buffer.from(SECRET).toString("base64")).verify(request.body, headers)).not.toThrow();

    const tampered = request.body.replace("Ana", "Ann");
    expect(specVerifier(SECRET, tampered, request.headers.get("x-service-signature"))).toBe(false);
    expect(() => new Webhook(Buffer.from(SECRET).toString("base64")).verify(tampered, headers)).toThrow();
  });

  test("any 2xx is a success", async () => {
    expect((await deliverTo(`http://127.0.0.1:${server.port}/accepted`)).status).toBe("succeeded");
  });

  test("a 500 fails and is retried, with the status and response logged", async () => {
    const log = await deliverTo(`http://127.0.0.1:${server.port}/error`);
    expect(log.status).toBe("pending");
    expect(log.attempts).toBe(1);
    expect(log.attempt_log[0]).toMatchObject({
      ok: false,
      status_code: 500,
      error: "http_status: 500",
      response_excerpt: "boom",
    });
  });

  test("a 302 fails and is never followed", async () => {
    const before = received.filter((entry) => entry.path === "/ok").length;
    const log = await deliverTo(`http://127.0.0.1:${server.port}/redirect`);
    expect(log.attempt_log[0]).toMatchObject({ ok: false, status_code: 302, error: "redirect_not_followed: 302" });
    expect(received.filter((entry) => entry.path === "/ok").length).toBe(before);
  });

  test("a receiver that never answers times out", async () => {
    const log = await deliverTo(`http://127.0.0.1:${server.port}/hang`);
    expect(log.attempt_log[0]).toMatchObject({ ok: false, status_code: null });
    expect(log.attempt_log[0]?.error).toStartWith("timeout");
    expect(log.attempt_log[0]?.duration_ms).toBeGreaterThanOrEqual(290);
  });

  test("a refused connection fails as a connection error", async () => {
    const log = await deliverTo(`http://127.0.0.1:${refusedPort}/nobody`);
    expect(log.attempt_log[0]).toMatchObject({ ok: false, status_code: null });
    expect(log.attempt_log[0]?.error).toStartWith("connection_error");
  });
});
