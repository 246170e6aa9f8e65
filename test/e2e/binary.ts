import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

const ROOT = resolve(import.meta.dir, "../..");
const BINARY = join(ROOT, "dist/parley");

let built = false;

/** Builds dist/parley once per test process with the project's own build script. */
export function buildBinary(): string {
  if (built) return BINARY;
  const result = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`build failed: ${result.stderr.toString()}`);
  built = true;
  return BINARY;
}

export interface Sandbox {
  dir: string;
  binary: string;
  env: Record<string, string>;
  /** Runs a CLI command of the copied binary in the sandbox and waits for it. */
  run(args: string[], options?: { stdin?: string; env?: Record<string, string> }): { code: number; out: string; err: string };
  cleanup(): void;
}

/** An empty temporary directory holding only a copy of the binary: no node_modules, no sources. */
export function createSandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "parley-e2e-"));
  const binary = join(dir, "parley");
  copyFileSync(buildBinary(), binary);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, PARLEY_DB: join(dir, "parley.db"), ...extraEnv };
  return {
    dir,
    binary,
    env,
    run(args, options = {}) {
      const result = Bun.spawnSync([binary, ...args], {
        cwd: dir,
        env: { ...env, ...options.env },
        stdin: options.stdin === undefined ? "ignore" : Buffer.from(options.stdin),
        stdout: "pipe",
        stderr: "pipe",
      });
      return { code: result.exitCode ?? -1, out: result.stdout.toString(), err: result.stderr.toString() };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RunningBinary {
  process: Subprocess<"ignore", "pipe", "pipe">;
  baseUrl: string;
  /** Everything the server printed on stdout so far. */
  output(): string;
}

/** Starts `parley serve` on a free loopback port and resolves once it prints its address. */
export async function startServer(sandbox: Sandbox, extraArgs: string[] = [], env: Record<string, string> = {}): Promise<RunningBinary> {
  const child = Bun.spawn([sandbox.binary, "serve", "--host", "127.0.0.1", "--port", "0", ...extraArgs], {
    cwd: sandbox.dir,
    env: { ...sandbox.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 15_000;
  let baseUrl: string | null = null;
  while (!baseUrl) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${text} ${await new Response(child.stderr).text()}`);
    text += decoder.decode(value);
    baseUrl = /listening on (http:\/\/\S+)/.exec(text)?.[1] ?? null;
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value);
    }
  })();
  return { process: child, baseUrl, output: () => text };
}
