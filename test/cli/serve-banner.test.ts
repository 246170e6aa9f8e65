import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** `parley serve --demo` in a child process; its stdout and stderr, line by line as they come. */
function serve(env: Record<string, string>, dir = mkdtempSync(join(tmpdir(), "parley-banner-"))) {
  const child = Bun.spawn(
    [process.execPath, MAIN, "serve", "--demo", "--port", "0", "--host", "127.0.0.1", "--db", join(dir, "parley.db")],
    {
      env: {
        PATH: process.env.PATH ?? "",
        PARLEY_JWT_SECRET: "banner-test-secret-0123456789abcdef-0123456789",
        ...env,
      },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(async () => {
    child.kill("SIGTERM");
    await child.exited;
  });
  const lines: string[] = [];
  const reader = child.stdout.getReader();
  let buffer = "";
  /** Reads stdout until a line matches (or the process ends). */
  async function until(pattern: RegExp): Promise<string> {
    for (;;) {
      const found = lines.find((line) => pattern.test(line));
      if (found) return found;
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`no line matched ${pattern}:\n${lines.join("\n")}`);
      buffer += new TextDecoder().decode(chunk.value);
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      lines.push(...parts);
    }
  }
  return { child, dir, lines, until, stderr: () => new Response(child.stderr).text() };
}

test("npm start's banner links the demo page, the admin page (naming the API key) and /docs, before the first access-log line", async () => {
  const server = serve({});
  const listening = await server.until(/^Parley listening on /);
  const base = /on (http:\/\/\S+)/.exec(listening)?.[1] ?? "";
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  await server.until(/"msg":"request"/);
  const at = (pattern: RegExp) => server.lines.findIndex((line) => pattern.test(line));
  const firstRequest = at(/"msg":"request"/);
  expect(at(/^ {2}API key {2}pk_/)).toBeGreaterThan(-1);
  for (const line of [
    new RegExp(`^ {2}demo page +${base}/ `),
    new RegExp(`^ {2}admin page +${base}/admin +\\(sign in with the login above, or the API key\\)$`),
    new RegExp(`^ {2}API reference +${base}/docs$`),
  ]) {
    expect({ line: line.source, before: at(line) > -1 && at(line) < firstRequest }).toEqual({
      line: line.source,
      before: true,
    });
  }
  server.child.kill("SIGTERM");
  expect(await server.stderr()).not.toContain("PARLEY_ALLOW_PRIVATE_WEBHOOKS");
});

test("serve warns on stderr when PARLEY_ALLOW_PRIVATE_WEBHOOKS=true", async () => {
  const server = serve({ PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true" });
  await server.until(/^Parley listening on /);
  server.child.kill("SIGTERM");
  expect(await server.stderr()).toContain("parley: warning: PARLEY_ALLOW_PRIVATE_WEBHOOKS=true");
});

test("under npm (npm start) the banner's commands read `npx parley …`, so they work as printed", async () => {
  const first = serve({});
  await first.until(/^Parley listening on /);
  first.child.kill("SIGTERM");
  await first.child.exited;
  const again = serve({ npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js" }, first.dir);
  await again.until(/^Parley listening on /);
  await again.until(/^ {2}API reference/);
  expect(again.lines.join("\n")).toContain("reset it with: npx parley user password --email demo@parley.local");
  expect(again.lines.find((line) => line.startsWith("  admin page"))).toMatch(
    /\(sign in with your e-mail and password, or a tenant API key — npx parley apikey create --tenant ten_\w+\)$/,
  );
});

test("the banner's chat example works as pasted: its visitor token is real", async () => {
  const server = serve({});
  await server.until(/^Parley listening on /);
  const line = server.lines.find((candidate) => candidate.includes("/api/v1/chatbot/message")) ?? "";
  expect(line).not.toContain("<");
  const url = /-X POST (\S+)/.exec(line)?.[1] ?? "";
  const authorization = /-H "Authorization: ([^"]+)"/.exec(line)?.[1] ?? "";
  const body = /-d '([^']+)'/.exec(line)?.[1] ?? "";
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body,
  });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { reply: { text: string } }).reply.text.length).toBeGreaterThan(0);
  const rule = server.lines.find((candidate) => candidate.includes("/rules-engine/rules")) ?? "";
  expect(rule).not.toContain("<");
  expect(server.lines.join("\n")).toContain("needs PARLEY_ALLOW_PRIVATE_WEBHOOKS=true");
  server.child.kill("SIGTERM");
});
