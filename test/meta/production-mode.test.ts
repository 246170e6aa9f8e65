import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");

describe("Elysia's production mode", () => {
  test("the mode module puts Elysia in production mode whatever NODE_ENV said", () => {
    const script =
      'import "./src/cli/production-mode.ts"; const { isProduction } = await import("elysia/error"); console.log(String(isProduction));';
    const run = Bun.spawnSync([process.execPath, "--no-install", "-e", script], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "development" },
    });
    expect(run.stdout.toString().trim()).toBe("true");
  });

  test("without it Elysia would load in development mode (the control case)", () => {
    const run = Bun.spawnSync(
      [
        process.execPath,
        "-e",
        'const { isProduction } = await import("elysia/error"); console.log(String(isProduction));',
      ],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: "development" },
      },
    );
    expect(run.stdout.toString().trim()).toBe("false");
  });

  test("the CLI entry point and the benchmark server import it before anything else", () => {
    for (const file of ["src/main.ts", "bench/chat-lib.ts"]) {
      const firstImport = readFileSync(join(root, file), "utf8")
        .split("\n")
        .find((line) => line.startsWith("import "));
      expect(firstImport).toMatch(/^import "(\.\/cli|\.\.\/src\/cli)\/production-mode\.ts";$/);
    }
  });
});
