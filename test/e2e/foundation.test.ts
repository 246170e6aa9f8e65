import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, startServer, type Sandbox } from "./binary.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox({ PARLEY_LOG_LEVEL: "error" });
});
afterAll(() => sandbox.cleanup());

describe("the compiled binary in an empty directory", () => {
  test("creates its database, is administered by its CLI while serving, logs in, limits, and stops on SIGTERM", async () => {
    expect(sandbox.run(["--version"]).out).toMatch(/^parley \d/);
    const server = await startServer(sandbox);
    try {
      expect(existsSync(join(sandbox.dir, "parley.db"))).toBe(true);
      expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({ status: "ready" });

      // The CLI works on the same database file while the server runs.
      const tenant = JSON.parse(sandbox.run(["tenant", "create", "--name", "E2E Clinic", "--json"]).out);
      expect(tenant.tenant_id).toMatch(/^ten_/);
      const user = sandbox.run(["user", "create", "--email", "e2e@clinic.test", "--tenant", tenant.tenant_id], {
        stdin: "e2e-password-1\n",
      });
      expect(user.code).toBe(0);
      const key = JSON.parse(sandbox.run(["apikey", "create", "--tenant", tenant.tenant_id, "--json"]).out).key;

      const login = await fetch(`${server.baseUrl}/api/v1/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "e2e@clinic.test", password: "e2e-password-1" }),
      });
      expect(login.status).toBe(200);
      const tokens = await login.json();
      const me = await fetch(`${server.baseUrl}/api/v1/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect((await me.json()).memberships).toEqual([{ tenant_id: tenant.tenant_id, role: "owner" }]);
      const viaKey = await fetch(`${server.baseUrl}/api/v1/tenant`, { headers: { "x-api-key": key } });
      expect((await viaKey.json()).name).toBe("E2E Clinic");

      // One good login was counted; four more wrong ones fill the window of 5; the next is limited.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const attempt = await fetch(`${server.baseUrl}/api/v1/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "e2e@clinic.test", password: "wrong-password" }),
        });
        statuses.push(attempt.status);
        if (attempt.status === 429) expect(Number(attempt.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      server.process.kill("SIGTERM");
    }
    expect(await server.process.exited).toBe(0);
    expect(server.output()).toContain("SIGTERM received, shutting down");
  });

  test("serve --demo seeds once and says so on the second start", async () => {
    const demoSandbox = createSandbox({ PARLEY_LOG_LEVEL: "error" });
    try {
      const first = await startServer(demoSandbox, ["--demo"]);
      const output = first.output();
      const password = /login\s+demo@parley\.local \/ (\S+)/.exec(output)?.[1];
      expect(password).toBeString();
      expect(output).toMatch(/API key\s+pk_/);
      const login = await fetch(`${first.baseUrl}/api/v1/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "demo@parley.local", password }),
      });
      expect(login.status).toBe(200);
      first.process.kill("SIGTERM");
      expect(await first.process.exited).toBe(0);

      const second = await startServer(demoSandbox, ["--demo"]);
      expect(second.output()).toContain("already exists");
      expect(second.output()).not.toContain(password ?? "?");
      second.process.kill("SIGTERM");
      expect(await second.process.exited).toBe(0);
    } finally {
      demoSandbox.cleanup();
    }
  });

  test("a bad setting stops the binary with exit 2 and one line", () => {
    const result = sandbox.run(["migrate"], { env: { PARLEY_PORT: "abc" } });
    expect(result.code).toBe(2);
    expect(result.err.trim().split("\n")).toEqual(["parley: PARLEY_PORT=abc is not a whole number"]);
  });
});
