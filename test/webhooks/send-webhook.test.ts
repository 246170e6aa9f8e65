import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { sendWebhook, type SendWebhookInput } from "../../src/webhooks/send-webhook.ts";
import { sendDeadlines } from "../../src/webhooks/send-deadline.ts";
import { deliveryHeaders, serializeDelivery, verifyServiceSignature } from "../../src/webhooks/sign.ts";

const SECRET = "receiver-test-secret";

interface Received {
  path: string;
  headers: Headers;
  body: string;
}

const received: Received[] = [];
const countRequests = (path: string): number => received.filter((r) => r.path === path).length;
const FIVE_MB = "x".repeat(5 * 1024 * 1024);

// One loopback receiver whose path picks the behaviour under test.
let server: Server<undefined>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, headers: request.headers, body: await request.text() });
      switch (path) {
        case "/ok":
          return new Response("thanks", { status: 200 });
        case "/fail":
          return new Response("boom", { status: 500 });
        case "/redirect":
          return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${server.port}/target` } });
        case "/target":
          return new Response("followed", { status: 200 });
        case "/never":
          return new Promise<Response>(() => undefined);
        case "/stall-body":
          // Headers and a first chunk go out, then the body never ends.
          return new Response(
            new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("partial")) }),
          );
        case "/huge":
          return new Response(FIVE_MB, { status: 200 });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
});

afterAll(() => {
  server.stop(true);
});

function signedInput(path: string, overrides: Partial<SendWebhookInput> = {}): SendWebhookInput {
  const { body, signature } = serializeDelivery(
    {
      event: "lead.created",
      webhookId: "wh_01jz0000000000000000000000",
      timestamp: "2026-01-15T09:00:00.000Z",
      data: { lead_id: "lead_1" },
    },
    SECRET,
  );
  const headers = deliveryHeaders({
    event: "lead.created",
    webhookId: "wh_01jz0000000000000000000000",
    attempt: 2,
    sendTimeMs: 1_768_467_600_000,
    body,
    signature,
    secret: SECRET,
  });
  return {
    url: `http://127.0.0.1:${server.port}${path}`,
    headers,
    body,
    timeoutMs: 2_000,
    allowPrivate: true,
    ...overrides,
  };
}

describe("sendWebhook", () => {
  test("a 200 answer is a success and the receiver gets the signed body and headers", async () => {
    const input = signedInput("/ok");
    const result = await sendWebhook(input);
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: "thanks" });
    expect(result.durationMs).toBeGreaterThan(0);
    const request = received.findLast((r) => r.path === "/ok");
    expect(request?.body).toBe(input.body);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(request?.headers.get("user-agent")).toBe("Parley-Webhooks/1");
    expect(request?.headers.get("x-service-event")).toBe("lead.created");
    expect(request?.headers.get("x-service-attempt")).toBe("2");
    expect(request?.headers.get("webhook-id")).toBe("wh_01jz0000000000000000000000");
    expect(request?.headers.get("webhook-timestamp")).toBe("1768467600");
    expect(request?.headers.get("webhook-signature")).toStartWith("v1,");
    expect(verifyServiceSignature(SECRET, request?.body ?? "", request?.headers.get("x-service-signature") ?? "")).toBe(
      true,
    );
  });

  test("a 500 answer is a failure with its status and body excerpt", async () => {
    const result = await sendWebhook(signedInput("/fail"));
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: "http_status: 500", responseExcerpt: "boom" });
  });

  test("a 302 is a failure and its Location is never requested", async () => {
    const result = await sendWebhook(signedInput("/redirect"));
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: "redirect_not_followed: 302" });
    expect(countRequests("/redirect")).toBe(1);
    expect(countRequests("/target")).toBe(0);
  });

  test("a receiver that never answers times out", async () => {
    const result = await sendWebhook(signedInput("/never", { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout: no response within 300 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  test("sends sharing a deadline slot end on their own: the answered one succeeds, and no timer is left", async () => {
    const [answered, hanging] = await Promise.all([
      sendWebhook(signedInput("/ok", { timeoutMs: 300 })),
      sendWebhook(signedInput("/never", { timeoutMs: 300 })),
    ]);
    expect(answered).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: "thanks" });
    expect(hanging).toMatchObject({ ok: false, error: "timeout: no response within 300 ms" });
    expect(hanging.durationMs).toBeGreaterThanOrEqual(290);
    expect(sendDeadlines.openSlots()).toBe(0);
  });

  test("a receiver that sends headers and then stalls the body times out too", async () => {
    const result = await sendWebhook(signedInput("/stall-body", { timeoutMs: 300 }));
    expect(result.ok).toBe(false);
    // The status line arrived, so the deadline fired while reading the body, not the headers.
    expect(result.statusCode).toBe(200);
    expect(result.error).toBe("timeout: no response within 300 ms");
    expect(result.durationMs).toBeLessThan(2_000);
  });

  test("a receiver that declares a short body and then stalls it times out too", async () => {
    // A raw socket: the status line and content-length 10 go out, then 3 bytes, then nothing.
    const stalling = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: { data: (socket) => void socket.write("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc") },
    });
    try {
      const result = await sendWebhook({
        ...signedInput("/"),
        url: `http://127.0.0.1:${stalling.port}/`,
        timeoutMs: 300,
      });
      expect(result).toMatchObject({ ok: false, statusCode: 200, error: "timeout: no response within 300 ms" });
      expect(result.durationMs).toBeLessThan(2_000);
    } finally {
      stalling.stop(true);
    }
  });

  test("a closed port is a connection error without a status code", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("unused") });
    const port = closed.port;
    closed.stop(true);
    const result = await sendWebhook({ ...signedInput("/ok"), url: `http://127.0.0.1:${port}/ok` });
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toStartWith("connection_error: ");
  });

  test("a 5 MB response body is cut to an excerpt of exactly 1024 bytes", async () => {
    const result = await sendWebhook(signedInput("/huge"));
    expect(result.ok).toBe(true);
    expect(Buffer.byteLength(result.responseExcerpt ?? "")).toBe(1024);
    expect(result.responseExcerpt).toBe("x".repeat(1024));
  });

  test("with allowPrivate false a loopback URL is refused and nothing is sent", async () => {
    const before = received.length;
    const result = await sendWebhook(signedInput("/ok", { allowPrivate: false }));
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toStartWith("forbidden_address: ");
    expect(result.error).toContain("127.0.0.1");
    expect(received.length).toBe(before);
  });

  test("with allowPrivate false a name that does not resolve is a connection error", async () => {
    const result = await sendWebhook(
      signedInput("/ok", { url: "https://hooks.example.com/in", allowPrivate: false, resolve: async () => [] }),
    );
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toStartWith("connection_error: cannot resolve host");
  });

  test("a name resolution that never finishes is a timeout within the attempt's deadline", async () => {
    const started = performance.now();
    const result = await sendWebhook(
      signedInput("/ok", {
        url: "https://hooks.example.com/in",
        allowPrivate: false,
        timeoutMs: 200,
        resolve: () => new Promise<string[]>(() => undefined),
      }),
    );
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout: no response within 200 ms" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("with a name, the request is sent to the address the check approved, with the name as Host and TLS server name", async () => {
    const dialled: Array<{ url: string; host: string | null; serverName: string | undefined }> = [];
    const dial = (async (input: string | URL | Request, init?: BunFetchRequestInit) => {
      dialled.push({
        url: String(input),
        host: new Headers(init?.headers).get("host"),
        serverName: init?.tls?.serverName,
      });
      return new Response("ok");
    }) as typeof fetch;
    const result = await sendWebhook(
      signedInput("/ok", {
        url: "https://hooks.example.com/in?x=1",
        allowPrivate: false,
        resolve: async () => ["93.184.216.34"],
        pinning: { dial },
      }),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: "ok" });
    expect(dialled).toEqual([
      { url: "https://93.184.216.34/in?x=1", host: "hooks.example.com", serverName: "hooks.example.com" },
    ]);
  });
});
