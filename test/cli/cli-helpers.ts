import { runCli } from "../../src/cli/run.ts";
import type { CliIo } from "../../src/cli/io.ts";

/** Runs `parley args…` in-process and returns its exit code and output. */
export async function cli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env: { PARLEY_LOG_LEVEL: "silent", ...options.env },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    readStdin: async () => options.stdin ?? "",
  };
  const code = await runCli(args, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}
