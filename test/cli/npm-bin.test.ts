import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const pkg = (await Bun.file(join(ROOT, "package.json")).json()) as { bin?: Record<string, string> };

test("package.json names an executable bin for `npx parley`", () => {
  expect(pkg.bin?.parley).toBe("src/cli/bin.mjs");
  expect(statSync(join(ROOT, "src/cli/bin.mjs")).mode & 0o111).not.toBe(0);
});

test("the bin runs under Node, starts Parley with the npm-installed Bun, and passes arguments and exit codes through", async () => {
  const run = async (...args: string[]) => {
    const child = Bun.spawn(["node", join(ROOT, "src/cli/bin.mjs"), ...args], {
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "" },
    });
    return {
      code: await child.exited,
      out: await new Response(child.stdout).text(),
      err: await new Response(child.stderr).text(),
    };
  };
  const help = await run("help");
  expect(help.code).toBe(0);
  expect(help.out).toContain("Usage: parley <command>");
  const wrong = await run("no-such-command");
  expect(wrong.code).toBe(2);
  expect(wrong.err).toContain("unknown command 'no-such-command'");
});
