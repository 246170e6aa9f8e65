import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { createSandbox, type Sandbox } from "./binary.ts";

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sandbox of sandboxes) sandbox.cleanup();
});

const droppedLines = async (baseUrl: string): Promise<number> => {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^parley_log_lines_dropped_total (\d+)$/m.exec(text)?.[1] ?? "NaN");
};

/** A free loopback port: bind port 0, read it, let it go. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port ?? 0;
  void probe.stop(true);
  return port;
}

/** `parley serve` on a known free port with the given stdout; resolves once /readyz answers. */
async function serveWithStdout<Stdout extends number | "pipe">(stdout: Stdout) {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  const port = freePort();
  const child = Bun.spawn([sandbox.binary, "serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: sandbox.dir,
    env: sandbox.env,
    stdin: "ignore",
    stdout,
    stderr: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let attempt = 0; attempt < 200 && !ready; attempt++) {
    ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (!ready) await Bun.sleep(50);
  }
  if (!ready) throw new Error("server did not become ready");
  return { child, baseUrl };
}

describe("the compiled binary outlives its log output", () => {
  test("with stdout on a full disk (/dev/full) it serves requests and counts the dropped log lines", async () => {
    const full = openSync("/dev/full", "w");
    const { child, baseUrl } = await serveWithStdout(full).finally(() => closeSync(full));
    try {
      // Every request writes a log line to stdout; each of them fails with ENOSPC.
      for (let i = 0; i < 5; i++) expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
      expect(await droppedLines(baseUrl)).toBeGreaterThanOrEqual(5);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
  });

  test("when the reader of its stdout goes away (EPIPE) it keeps serving", async () => {
    const { child, baseUrl } = await serveWithStdout("pipe");
    try {
      // Close the read end of the stdout pipe: the next writes fail with EPIPE.
      await child.stdout.cancel();
      for (let i = 0; i < 5; i++) expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
      expect(await droppedLines(baseUrl)).toBeGreaterThanOrEqual(1);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
  });
});
