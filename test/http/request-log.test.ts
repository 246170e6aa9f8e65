import { afterEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/http/app.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import type { LogLevel } from "../../src/lib/log.ts";
import { buildDeps, closeDeps, type TestDeps } from "../helpers.ts";

let base: TestDeps | undefined;
afterEach(() => base && closeDeps(base));

/** The app at `level`, with every info line it logs kept. */
function appLogging(level: LogLevel) {
  const lines: Record<string, unknown>[] = [];
  base = buildDeps({ logLevel: level });
  const app = createApp(createAppDeps({ ...base, log: { info: (fields) => lines.push(fields), error: () => {} } }));
  return { app, lines };
}

/** The request line is written after the response, from a setImmediate Elysia schedules. */
const afterResponses = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("one log line per request", () => {
  test("at info: method, path, status and the request id the client sees", async () => {
    const { app, lines } = appLogging("info");
    const found = await app.handle(new Request("http://localhost/healthz?probe=1"));
    const missing = await app.handle(
      new Request("http://localhost/api/v1/nothing-here", { method: "POST", headers: { "x-request-id": "abc-123" } }),
    );
    await afterResponses();
    expect(lines.filter((line) => line.msg === "request")).toEqual([
      {
        msg: "request",
        request_id: found.headers.get("x-request-id"),
        method: "GET",
        path: "/healthz",
        status: 200,
        duration_ms: expect.any(Number),
      },
      {
        msg: "request",
        request_id: "abc-123",
        method: "POST",
        path: "/api/v1/nothing-here",
        status: missing.status,
        duration_ms: expect.any(Number),
      },
    ]);
    expect(missing.status).toBe(404);
  });

  test("at error or silent: no request lines, and every response still carries its request id", async () => {
    for (const level of ["error", "silent"] as const) {
      const { app, lines } = appLogging(level);
      const response = await app.handle(new Request("http://localhost/healthz"));
      await afterResponses();
      expect(response.status).toBe(200);
      expect(response.headers.get("x-request-id")).toMatch(/^[\w.:-]+$/);
      expect(lines).toEqual([]);
      closeDeps(base as TestDeps);
      base = undefined;
    }
  });
});
