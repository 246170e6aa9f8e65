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
  run(
    args: string[],
    options?: { stdin?: string; env?: Record<string, string> },
  ): { code: number; out: string; err: string };
  cleanup(): void;
}

/** An empty temporary directory holding only a copy of the binary: no node_modules, no sources. */
export function createSandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "parley-e2e-"));
  const binary = join(dir, "parley");
  copyFileSync(buildBinary(), binary);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    PARLEY_DB: join(dir, "parley.db"),
    ...extraEnv,
  };
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
  port: number;
  baseUrl: string;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
}

export interface StartOptions {
  /** The port to listen on (0: any free one, read from the banner). */
  port?: number;
  /** How the server is named in errors (several run at once in the cluster test). */
  name?: string;
  timeoutMs?: number;
}

async function drain(stream: ReadableStream<Uint8Array>, sink: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
}

/**
 * Starts `parley serve` of the sandbox's binary on 127.0.0.1 and resolves once it has printed
 * its address and /readyz answers 200. Both pipes are drained for the child's whole life (a full
 * pipe would block it). Everything is bounded by `timeoutMs`; a server that does not get ready
 * is stopped.
 */
export async function startServer(
  sandbox: Sandbox,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningBinary> {
  const { port = 0, name = "server", timeoutMs = 30_000 } = options;
  const child = Bun.spawn([sandbox.binary, "serve", "--host", "127.0.0.1", "--port", String(port), ...extraArgs], {
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
  let baseUrl: string | null = null;
  try {
    while (!baseUrl) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before listening: ${text}`);
      if (Date.now() > deadline) throw new Error(`${name} did not print its address within ${timeoutMs} ms: ${text}`);
      baseUrl = /listening on (http:\/\/\S+)/.exec(text)?.[1]?.replace(/\/$/, "") ?? null;
      if (!baseUrl) await Bun.sleep(20);
    }
    for (;;) {
      const ready = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (ready === 200) break;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name} exited before it was ready: ${text}`);
      if (Date.now() > deadline)
        throw new Error(`${name} not ready within ${timeoutMs} ms (last /readyz ${ready}): ${text}`);
      await Bun.sleep(50);
    }
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { process: child, port: Number(new URL(baseUrl).port), baseUrl, output: () => text };
}

/** SIGTERM by PID, SIGKILL if still alive after `graceMs`; resolves once it has exited. */
export async function stopProcess(child: Subprocess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  process.kill(child.pid, "SIGTERM");
  const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
  if (exited) return;
  try {
    process.kill(child.pid, "SIGKILL");
  } catch {
    // Exited between the check and the kill.
  }
  await Promise.race([child.exited, Bun.sleep(5_000)]);
}
