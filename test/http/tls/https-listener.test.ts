import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:tls";
import { parseCertificatePair, type CertificatePair } from "../../../src/http/tls/certificate-pair.ts";
import { listenHttps } from "../../../src/http/tls/https-listener.ts";
import { certificateDir, makeSelfSigned } from "./openssl.ts";

const dir = certificateDir();
let first: CertificatePair;
let second: CertificatePair;
beforeAll(async () => {
  const a = await makeSelfSigned(dir.dir, "first.test");
  const b = await makeSelfSigned(dir.dir, "second.test");
  first = parseCertificatePair(a.cert, a.key, Date.now());
  second = parseCertificatePair(b.cert, b.key, Date.now());
});
afterAll(() => dir.cleanup());

/** The CN of the certificate a new connection is shown. */
function servedName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: "localhost", rejectUnauthorized: false }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.end();
    });
    socket.on("error", reject);
  });
}

/** Streams ten lines, one whenever the test releases the next: the stream outlives a certificate swap. */
function gatedStream() {
  const gates: Array<() => void> = [];
  let released = 0;
  const release = () => {
    released += 1;
    gates.shift()?.();
  };
  const body = () => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= released) await new Promise<void>((resolve) => gates.push(resolve));
        controller.enqueue(new TextEncoder().encode(`line ${sent++}\n`));
        if (sent === 10) controller.close();
      },
    });
  };
  return { release, body };
}

test("a replaced certificate is shown to the next connection while an open response keeps streaming", async () => {
  const stream = gatedStream();
  const servers: unknown[] = [];
  const listener = listenHttps({
    port: 0,
    hostname: "127.0.0.1",
    pair: first,
    serveOptions: { maxRequestBodySize: 1024, development: false },
    onServer: (server) => servers.push(server),
    fetch: (request) =>
      new URL(request.url).pathname === "/stream" ? new Response(stream.body()) : new Response("plain"),
  });
  try {
    expect(await servedName(listener.port)).toBe("first.test");
    stream.release();
    const open = await fetch(`https://127.0.0.1:${listener.port}/stream`, { tls: { rejectUnauthorized: false } });
    const reader = open.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);

    listener.replace(second);
    expect(servers.length).toBe(2);
    expect(await servedName(listener.port)).toBe("second.test");
    expect(await servedName(listener.port)).toBe("second.test");

    for (let line = 1; line < 10; line++) stream.release();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text.trim().split("\n")).toHaveLength(10);
    expect(text).toEndWith("line 9\n");
  } finally {
    await listener.stop();
  }
});

test("a second listener cannot join a port the HTTPS server holds", async () => {
  const listener = listenHttps({
    port: 0,
    hostname: "127.0.0.1",
    pair: first,
    serveOptions: { maxRequestBodySize: 1024, development: false },
    onServer: () => {},
    fetch: () => new Response("plain"),
  });
  try {
    const options = {
      port: listener.port,
      hostname: "127.0.0.1",
      pair: first,
      serveOptions: { maxRequestBodySize: 1024, development: false },
      onServer: () => {},
      fetch: () => new Response("x"),
    };
    expect(() => listenHttps(options)).toThrow();
  } finally {
    await listener.stop();
  }
});
