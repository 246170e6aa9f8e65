import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createHttp1Client, type Http1Target } from "../../src/lib/http1-client.ts";
import { RESPONSE_EXCERPT_BYTES, sendWebhook, type SendWebhookInput } from "../../src/webhooks/send-webhook.ts";
import { ok, startRawReceiver, type Answer, type RawReceiver } from "../lib/raw-receiver.ts";

// sendWebhook over its raw-socket client, against receivers that answer byte by byte.

const fixtures = join(import.meta.dir, "fixtures");
const cert = await Bun.file(join(fixtures, "pinning-test-cert.pem")).text();
const key = await Bun.file(join(fixtures, "pinning-test-key.pem")).text();

const receivers: RawReceiver[] = [];
const receiver = (answer: Answer, tls?: { cert: string; key: string }) => {
  const started = startRawReceiver(answer, tls);
  receivers.push(started);
  return started;
};
afterEach(() => {
  for (const started of receivers.splice(0)) started.stop();
});

const input = (url: string, overrides: Partial<SendWebhookInput> = {}): SendWebhookInput => ({
  url,
  headers: { "content-type": "application/json", "webhook-id": "msg_wire" },
  body: '{"event":"lead.created"}',
  timeoutMs: 2_000,
  allowPrivate: true,
  ...overrides,
});

describe("sendWebhook on kept-alive connections", () => {
  test("attempts to one receiver share a connection, and the receiver sees the URL's host and path", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok("thanks")));
    const url = `http://127.0.0.1:${hooks.port}/in?tenant=1`;
    for (let i = 0; i < 3; i++) {
      expect(await sendWebhook(input(url))).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: "thanks" });
    }
    expect(hooks.connections.filter((connection) => connection.requests.length > 0)).toHaveLength(1);
    expect(hooks.requests()[0]?.head).toStartWith(`POST /in?tenant=1 HTTP/1.1\r\nhost: 127.0.0.1:${hooks.port}\r\n`);
  });

  test("a receiver that closed the kept-alive connection gets the webhook again on a new one, same webhook-id", async () => {
    const hooks = receiver((_request, socket) => {
      if (socket.data.index === 0 && socket.data.requests.length === 2) return void socket.end();
      socket.write(ok());
    });
    const url = `http://127.0.0.1:${hooks.port}/in`;
    await sendWebhook(input(url));
    expect(await sendWebhook(input(url))).toMatchObject({ ok: true, statusCode: 200, error: null });
    const ids = hooks.requests().map((request) => /webhook-id: (\S+)/.exec(request.head)?.[1]);
    expect(ids).toEqual(["msg_wire", "msg_wire", "msg_wire"]);
  });

  test("a chunked answer after 100 Continue is a success with its excerpt", async () => {
    const hooks = receiver((_request, socket) =>
      socket.write(
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\ntransfer-encoding: chunked\r\n\r\n4\r\nqueu\r\n2\r\ned\r\n0\r\n\r\n",
      ),
    );
    const result = await sendWebhook(input(`http://127.0.0.1:${hooks.port}/`));
    expect(result).toMatchObject({ ok: true, statusCode: 202, error: null, responseExcerpt: "queued" });
  });

  test("a malformed answer, an oversized head and a body cut short are connection errors with their kind", async () => {
    const answers = [
      "HTTP/1.1 OK\r\n\r\n",
      `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(17_000)}\r\n\r\n`,
      "HTTP/1.1 503 Busy\r\ncontent-length: 50\r\n\r\nbusy",
    ];
    const hooks = receiver((_request, socket) => {
      socket.write(answers[socket.data.index] ?? "");
      socket.end();
    });
    const url = `http://127.0.0.1:${hooks.port}/`;
    expect(await sendWebhook(input(url))).toMatchObject({
      ok: false,
      statusCode: null,
      error: "connection_error: malformed_response: bad status line",
    });
    expect((await sendWebhook(input(url))).error).toStartWith("connection_error: response_head_too_large: ");
    expect(await sendWebhook(input(url))).toMatchObject({
      ok: false,
      statusCode: 503,
      error: "connection_error: connection_closed: the receiver closed the connection before the response body ended",
    });
  });

  test("https to an address the certificate does not name is refused, with the test CA trusted", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()), { cert, key });
    const result = await sendWebhook(input(`https://127.0.0.1:${hooks.port}/`, { pinning: { tlsCa: [cert] } }));
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toStartWith("connection_error: ");
    expect(result.error).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(hooks.requests()).toHaveLength(0);
  });
});

describe("sendWebhook dials the address the SSRF check approved", () => {
  const NAME = "hooks.example.test";
  const PUBLIC_IP = "93.184.216.34";
  const OTHER_PUBLIC_IP = "93.184.216.35";

  /** A client whose connections go to loopback ports standing in for public addresses; records each target. */
  function routedClient(ports: Record<string, number>) {
    const dialled: Http1Target[] = [];
    const client = createHttp1Client({
      excerptBytes: RESPONSE_EXCERPT_BYTES,
      route: (target) => {
        dialled.push(target);
        return { hostname: "127.0.0.1", port: ports[target.hostname] ?? 1 };
      },
    });
    return { client, dialled };
  }

  test("a re-binding name is resolved once, dialled at the checked address, with its name as Host, SNI and certificate name", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok("pinned")), { cert, key });
    let lookups = 0;
    const resolve = async () => (lookups++ === 0 ? [PUBLIC_IP] : ["127.0.0.1"]);
    const { client, dialled } = routedClient({ [PUBLIC_IP]: hooks.port });
    const result = await sendWebhook(
      input(`https://${NAME}:8443/hook`, { allowPrivate: false, resolve, pinning: { tlsCa: [cert], client } }),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: "pinned" });
    expect(lookups).toBe(1);
    expect(dialled).toEqual([{ hostname: PUBLIC_IP, port: 8443, tls: true, serverName: NAME, ca: [cert] }]);
    expect(hooks.requests()[0]?.head).toContain(`\r\nhost: ${NAME}:8443\r\n`);
  });

  test("the next checked address is dialled only when the first refused the connection", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()));
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => undefined } });
    const refusingPort = closed.port;
    closed.stop(true);
    const { client, dialled } = routedClient({ [PUBLIC_IP]: refusingPort, [OTHER_PUBLIC_IP]: hooks.port });
    const resolve = async () => [PUBLIC_IP, OTHER_PUBLIC_IP];
    const result = await sendWebhook(
      input(`http://${NAME}/hook`, { allowPrivate: false, resolve, pinning: { client } }),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(dialled.map((target) => target.hostname)).toEqual([PUBLIC_IP, OTHER_PUBLIC_IP]);
    expect(hooks.requests()).toHaveLength(1);
  });
});
