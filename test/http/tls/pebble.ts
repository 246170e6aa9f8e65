import type { Subprocess } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Pebble {
  readonly directoryUrl: string;
  /** The certificate of Pebble's own listener (what PARLEY_ACME_CA_CERT names). */
  readonly listenerCaPath: string;
  readonly listenerCa: string;
  /** The port Pebble sends HTTP-01 validation requests to (PARLEY_HTTP_PORT must match). */
  readonly httpPort: number;
  /** The root that signs issued certificates, from Pebble's management interface. */
  root(): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

async function drain(stream: ReadableStream<Uint8Array>, sink: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
}

/**
 * Let's Encrypt's test CA on loopback: pebble-challtestsrv answers every DNS name with
 * 127.0.0.1, and pebble validates HTTP-01 on `httpPort` of that address. Its listener
 * certificate is made here with openssl. Everything binds 127.0.0.1 and stops with `stop()`.
 */
export async function startPebble(options: { httpPort?: number } = {}): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), "parley-pebble-"));
  const listenerCaPath = join(dir, "listener.crt");
  const keyPath = join(dir, "listener.key");
  const made = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      keyPath,
      "-out",
      listenerCaPath,
      "-days",
      "2",
      "-subj",
      "/CN=pebble listener",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  const [acmePort, managementPort, dnsPort, challengeManagementPort] = [freePort(), freePort(), freePort(), freePort()];
  const httpPort = options.httpPort ?? freePort();
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${acmePort}`,
      managementListenAddress: `127.0.0.1:${managementPort}`,
      certificate: listenerCaPath,
      privateKey: keyPath,
      httpPort,
      tlsPort: freePort(),
      ocspResponderURL: "",
      externalAccountBindingRequired: false,
    },
  };
  writeFileSync(join(dir, "pebble.json"), JSON.stringify(config));
  let text = "";
  const spawn = (command: string[], env: Record<string, string> = {}) => {
    const child = Bun.spawn(command, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    void drain(child.stdout, (chunk) => (text += chunk)).catch(() => undefined);
    void drain(child.stderr, (chunk) => (text += chunk)).catch(() => undefined);
    return child;
  };
  const children: Subprocess[] = [
    spawn([
      "pebble-challtestsrv",
      "-defaultIPv4",
      "127.0.0.1",
      "-defaultIPv6",
      "",
      "-dns01",
      `127.0.0.1:${dnsPort}`,
      "-http01",
      "",
      "-https01",
      "",
      "-tlsalpn01",
      "",
      "-management",
      `127.0.0.1:${challengeManagementPort}`,
    ]),
    // No random nonce rejections or validation sleeps: the test is about Parley, not retries.
    spawn(["pebble", "-config", join(dir, "pebble.json"), "-dnsserver", `127.0.0.1:${dnsPort}`], {
      PEBBLE_VA_NOSLEEP: "1",
      PEBBLE_WFE_NONCEREJECT: "0",
      PEBBLE_AUTHZREUSE: "0",
    }),
  ];
  const listenerCa = await Bun.file(listenerCaPath).text();
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.race([Promise.all(children.map((child) => child.exited)), Bun.sleep(5_000)]);
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await fetch(directoryUrl, { tls: { ca: listenerCa }, signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`pebble did not start: ${text}`);
    }
    await Bun.sleep(100);
  }
  return {
    directoryUrl,
    listenerCaPath,
    listenerCa,
    httpPort,
    root: async () => (await fetch(`https://127.0.0.1:${managementPort}/roots/0`, { tls: { ca: listenerCa } })).text(),
    output: () => text,
    stop,
  };
}
