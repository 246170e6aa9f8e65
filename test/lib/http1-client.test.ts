import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Socket } from "bun";
import { createHttp1Client, type Http1Post } from "../../src/lib/http1-client.ts";
import { ok, startRawReceiver, until, type Answer, type RawConnection, type RawReceiver } from "./raw-receiver.ts";

const fixtures = join(import.meta.dir, "../webhooks/fixtures");
const cert = await Bun.file(join(fixtures, "pinning-test-cert.pem")).text();
const key = await Bun.file(join(fixtures, "pinning-test-key.pem")).text();
const NAME = "hooks.example.test";
const BODY = JSON.stringify({ event: "lead.created", name: "Zoë" });

let clock = 0;
const receivers: RawReceiver[] = [];
const receiver = (answer: Answer, tls?: { cert: string; key: string }) => {
  const started = startRawReceiver(answer, tls);
  receivers.push(started);
  return started;
};
const newClient = (options: { maxIdlePerKey?: number; maxIdle?: number } = {}) =>
  createHttp1Client({ excerptBytes: 1024, now: () => clock, idleMs: 4_000, ...options });

afterEach(() => {
  for (const started of receivers.splice(0)) started.stop();
});

function postTo(port: number, overrides: Partial<Http1Post> = {}): Http1Post {
  return {
    target: { hostname: "127.0.0.1", port, tls: false },
    host: `${NAME}:${port}`,
    path: "/in?x=1",
    headers: { "content-type": "application/json", "webhook-id": "msg_1" },
    body: BODY,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Writes `text` one byte per event-loop turn, so the client reads it in many small pieces. */
async function trickle(socket: Socket<RawConnection>, text: string): Promise<void> {
  for (const byte of Buffer.from(text)) {
    socket.write(new Uint8Array([byte]));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("a POST over HTTP/1.1", () => {
  test("sends the host, the caller's headers, the length and the UTF-8 body, and reuses one connection", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok("thanks")));
    const client = newClient();
    for (let i = 0; i < 3; i++)
      expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "thanks" });
    expect(hooks.connections).toHaveLength(1);
    expect(client.connectionsOpened()).toBe(1);
    const [request] = hooks.requests();
    expect(request?.head.split("\r\n")).toEqual([
      "POST /in?x=1 HTTP/1.1",
      `host: ${NAME}:${hooks.port}`,
      "content-type: application/json",
      "webhook-id: msg_1",
      `content-length: ${Buffer.byteLength(BODY)}`,
    ]);
    expect(request?.body).toBe(BODY);
  });

  test("a header value with CR or LF is refused before any connection", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()));
    const client = newClient();
    const injected = postTo(hooks.port, { headers: { "x-a": "1\r\nx-injected: 1" } });
    await expect(client.post(injected)).rejects.toMatchObject({ code: "invalid_header" });
    expect(client.connectionsOpened()).toBe(0);
  });

  test("connection: close from the receiver is honoured: the next request opens a new connection", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok("bye", "connection: close\r\n")));
    const client = newClient();
    await client.post(postTo(hooks.port));
    await client.post(postTo(hooks.port));
    expect(hooks.connections).toHaveLength(2);
    expect(client.idleConnections()).toBe(0);
  });

  test("a chunked answer after a 100 Continue, arriving one byte at a time, is read whole", async () => {
    const answer =
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
    const hooks = receiver((_request, socket) => void trickle(socket, answer));
    const client = newClient();
    expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "abcde" });
    expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "abcde" });
    expect(hooks.connections).toHaveLength(1);
  });

  test("a head over 16 KiB, garbage, or a close mid-body is an error, and the connection is dropped", async () => {
    const answers = [
      `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`,
      "\u0000\u0001garbage\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly this",
    ];
    const hooks = receiver((_request, socket) => {
      socket.write(answers[socket.data.index] ?? "");
      if (socket.data.index === 2) socket.end();
    });
    const client = newClient();
    const statuses: number[] = [];
    const post = postTo(hooks.port, { onStatus: (status) => statuses.push(status) });
    await expect(client.post(post)).rejects.toMatchObject({ code: "response_head_too_large" });
    await expect(client.post(post)).rejects.toMatchObject({ code: "malformed_response" });
    await expect(client.post(post)).rejects.toMatchObject({ code: "connection_closed" });
    expect(statuses).toEqual([200]);
    await until(() => hooks.connections.every((connection) => connection.closed));
    expect(client.idleConnections()).toBe(0);
  });

  test("a 10 MB answer gives a 1 KiB excerpt, closes the connection instead of reading it all, and is not reused", async () => {
    const total = 10 * 1024 * 1024;
    let sent = 0;
    const hooks = receiver((_request, socket) => {
      if (socket.data.index > 0) return void socket.write(ok());
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${total}\r\n\r\n`);
      const piece = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (sent < total && !socket.data.closed) {
          const written = socket.write(piece);
          if (written <= 0) return void setTimeout(pump, 1);
          sent += written;
        }
      };
      pump();
    });
    const client = newClient();
    expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "x".repeat(1024) });
    await until(() => hooks.connections[0]?.closed === true);
    expect(sent).toBeLessThan(total);
    expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "ok" });
    expect(hooks.connections).toHaveLength(2);
  });
});

describe("the keep-alive race and the pool", () => {
  test("an answer that comes before the whole request was written counts, and the connection is not reused", async () => {
    // The receiver answers at the first bytes and stops reading: 16 MB cannot all be written.
    const early = Bun.listen<{ answered: boolean }>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          socket.data = { answered: false };
        },
        data(socket) {
          if (socket.data.answered) return;
          socket.data.answered = true;
          socket.pause();
          socket.write("HTTP/1.1 413 Payload Too Large\r\ncontent-length: 3\r\n\r\nbig");
        },
      },
    });
    try {
      const client = newClient();
      const result = await client.post({ ...postTo(early.port), body: "x".repeat(16 * 1024 * 1024) });
      expect(result).toEqual({ status: 413, excerpt: "big" });
      expect(client.idleConnections()).toBe(0);
    } finally {
      early.stop(true);
    }
  });

  test("a reused connection closed before any answer byte sends the request once more, on a new connection", async () => {
    const hooks = receiver((_request, socket) => {
      // The second request on the first connection meets a receiver that has just closed it.
      if (socket.data.index === 0 && socket.data.requests.length === 2) return void socket.end();
      socket.write(ok());
    });
    const client = newClient();
    await client.post(postTo(hooks.port));
    expect(await client.post(postTo(hooks.port))).toEqual({ status: 200, excerpt: "ok" });
    expect(hooks.connections.map((connection) => connection.requests.length)).toEqual([2, 1]);
  });

  test("it is sent once more, not twice, and a new connection closed before answering is not retried", async () => {
    const hooks = receiver((_request, socket) => {
      if (socket.data.index === 0 && socket.data.requests.length === 1) return void socket.write(ok());
      socket.end();
    });
    const client = newClient();
    await client.post(postTo(hooks.port));
    await expect(client.post(postTo(hooks.port))).rejects.toMatchObject({ code: "connection_closed" });
    expect(hooks.requests()).toHaveLength(3);
    await expect(client.post(postTo(hooks.port))).rejects.toMatchObject({ code: "connection_closed" });
    expect(hooks.requests()).toHaveLength(4);
  });

  test("a reused connection closed after the first answer byte is an error, never a second send", async () => {
    const hooks = receiver((_request, socket) => {
      if (socket.data.requests.length === 1) return void socket.write(ok());
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc");
      socket.end();
    });
    const client = newClient();
    await client.post(postTo(hooks.port));
    await expect(client.post(postTo(hooks.port))).rejects.toMatchObject({ code: "connection_closed" });
    expect(hooks.requests()).toHaveLength(2);
  });

  test("an idle connection is closed once idle for 4 s on the client's clock, and an expired one is never reused", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()));
    const client = newClient();
    clock = 0;
    await client.post(postTo(hooks.port));
    clock = 3_999;
    client.sweep();
    expect(client.idleConnections()).toBe(1);
    clock = 4_000;
    client.sweep();
    expect(client.idleConnections()).toBe(0);
    await until(() => hooks.connections[0]?.closed === true);
    await client.post(postTo(hooks.port));
    clock = 8_000;
    await client.post(postTo(hooks.port)); // taken past its time: closed, and a new one opened
    expect(hooks.connections).toHaveLength(3);
  });

  test("an idle connection the receiver closes leaves the pool, and the other one is reused", async () => {
    const sockets: Socket<RawConnection>[] = [];
    const hooks = receiver((_request, socket) => {
      sockets.push(socket);
      socket.write(ok());
    });
    const client = newClient();
    await Promise.all([client.post(postTo(hooks.port)), client.post(postTo(hooks.port))]);
    expect(client.idleConnections()).toBe(2);
    sockets.find((socket) => socket.data.index === 0)?.end();
    await until(() => client.idleConnections() === 1);
    await client.post(postTo(hooks.port));
    expect(hooks.connections).toHaveLength(2);
    expect(hooks.connections[1]?.requests).toHaveLength(2);
  });

  test("the pool keeps at most maxIdlePerKey connections for one receiver", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()));
    const client = newClient({ maxIdlePerKey: 2 });
    await Promise.all(Array.from({ length: 5 }, () => client.post(postTo(hooks.port))));
    expect(hooks.connections).toHaveLength(5);
    expect(client.idleConnections()).toBe(2);
    await until(() => hooks.connections.filter((connection) => connection.closed).length === 3);
  });

  test("and at most maxIdle over every receiver", async () => {
    const first = receiver((_request, socket) => socket.write(ok()));
    const second = receiver((_request, socket) => socket.write(ok()));
    const client = newClient({ maxIdlePerKey: 2, maxIdle: 3 });
    await Promise.all([first, first, second, second].map((hooks) => client.post(postTo(hooks.port))));
    expect(client.idleConnections()).toBe(3);
    await until(
      () => [...first.connections, ...second.connections].filter((connection) => connection.closed).length === 1,
    );
  });

  test("an abort destroys the socket and rejects with the abort's reason", async () => {
    const hooks = receiver(() => undefined);
    const client = newClient();
    const controller = new AbortController();
    const pending = client.post(postTo(hooks.port, { signal: controller.signal }));
    await until(() => hooks.requests().length === 1);
    controller.abort(new Error("deadline"));
    await expect(pending).rejects.toThrow("deadline");
    await until(() => hooks.connections[0]?.closed === true);
  });
});

describe("https", () => {
  const tlsPost = (port: number, serverName: string, ca?: string[]) =>
    postTo(port, { target: { hostname: "127.0.0.1", port, tls: true, serverName, ca }, host: serverName });

  test("with the test CA, the certificate is verified against the server name, not the dialled address", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok("secure")), { cert, key });
    const client = newClient();
    expect(await client.post(tlsPost(hooks.port, NAME, [cert]))).toEqual({ status: 200, excerpt: "secure" });
    expect(await client.post(tlsPost(hooks.port, NAME, [cert]))).toEqual({ status: 200, excerpt: "secure" });
    expect(hooks.connections).toHaveLength(1);
  });

  test("a certificate for another name, or one no trusted authority signed, is refused before the request", async () => {
    const hooks = receiver((_request, socket) => socket.write(ok()), { cert, key });
    const client = newClient();
    await expect(client.post(tlsPost(hooks.port, "other.example.test", [cert]))).rejects.toMatchObject({
      code: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
    await expect(client.post(tlsPost(hooks.port, NAME))).rejects.toThrow(/certificate/);
    expect(hooks.requests()).toHaveLength(0);
  });
});
