import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createSandbox, startServer, type Sandbox } from "./binary.ts";

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sandbox of sandboxes) sandbox.cleanup();
});

describe("one server per SQLite file and per port", () => {
  test("a second serve on the same database exits 1 with one line, and the first keeps serving", async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    const first = await startServer(sandbox);
    try {
      const second = sandbox.run(["serve", "--host", "127.0.0.1", "--port", "0"]);
      expect(second.code).toBe(1);
      expect(second.err.trim().split("\n")).toHaveLength(1);
      expect(second.err).toContain("another parley server is already serving");
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
      expect(first.process.exitCode).toBeNull();
    } finally {
      first.process.kill("SIGTERM");
      await first.process.exited;
    }
    // The lock goes with the process: the next start on the same file works.
    const again = await startServer(sandbox);
    expect((await fetch(`${again.baseUrl}/healthz`)).status).toBe(200);
    again.process.kill("SIGKILL");
    await again.process.exited;
    // Even after SIGKILL no stale lock is left behind.
    const afterKill = await startServer(sandbox);
    expect((await fetch(`${afterKill.baseUrl}/healthz`)).status).toBe(200);
    afterKill.process.kill("SIGTERM");
    await afterKill.process.exited;
  });

  test("a second serve on a port already in use exits 1 instead of sharing it", async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    const first = await startServer(sandbox);
    try {
      const port = new URL(first.baseUrl).port;
      const second = sandbox.run(["serve", "--host", "127.0.0.1", "--port", port], {
        env: { PARLEY_DB: join(sandbox.dir, "other.db") },
      });
      expect(second.code).toBe(1);
      expect(second.err).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      first.process.kill("SIGTERM");
      await first.process.exited;
    }
  });
});
