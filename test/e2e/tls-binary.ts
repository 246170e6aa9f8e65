import type { Subprocess } from "bun";
import { connect } from "node:tls";
import { stopProcess, type Sandbox } from "./binary.ts";

export interface RunningTlsBinary {
  process: Subprocess<"ignore", "pipe", "pipe">;
  port: number;
  output(): string;
}

async function drain(stream: ReadableStream<Uint8Array>, sink: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
}

/** A port free on 127.0.0.1 now (for PARLEY_HTTP_PORT, which has no "any port" banner). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * Starts `parley serve` over HTTPS on 127.0.0.1 and resolves once it printed its https address
 * (readiness is the caller's check: it knows which CA to trust). Bounded by `timeoutMs`.
 */
export async function startTlsServer(
  sandbox: Sandbox,
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number } = {},
): Promise<RunningTlsBinary> {
  const { port: listenPort = 0, timeoutMs = 60_000 } = options;
  const child = Bun.spawn([sandbox.binary, "serve", "--host", "127.0.0.1", "--port", String(listenPort)], {
    cwd: sandbox.dir,
    env: { ...sandbox.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  void drain(child.stdout, (chunk) => (text += chunk)).catch(() => undefined);
  void drain(child.stderr, (chunk) => (text += chunk)).catch(() => undefined);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const port = /listening on https:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1];
    if (port) return { process: child, port: Number(port), output: () => text };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stopProcess(child);
      throw new Error(`the server did not start over HTTPS: ${text}`);
    }
    await Bun.sleep(20);
  }
}

export interface PeerCertificate {
  subject: string;
  issuer: string;
  authorized: boolean;
  authorizationError: string | null;
}

/** What a new TLS connection with SNI `servername` is shown, verified against `ca`. */
export function peerCertificate(port: number, servername: string, ca: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername, ca, rejectUnauthorized: false }, () => {
      const peer = socket.getPeerCertificate();
      resolve({
        subject: String(peer.subject?.CN ?? ""),
        issuer: String(peer.issuer?.CN ?? ""),
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
      });
      socket.end();
    });
    socket.setTimeout(5_000, () => socket.destroy(new Error("TLS handshake timed out")));
    socket.on("error", reject);
  });
}

/** Polls `check` until it returns true, for `timeoutMs` at most; returns whether it did. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await Bun.sleep(100);
  }
  return false;
}
