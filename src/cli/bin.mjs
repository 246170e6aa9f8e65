#!/usr/bin/env node
/**
 * `npx parley …` after `npm install` (package.json "bin"). npm starts a bin with Node, but
 * Parley runs on Bun: this shim starts the Bun that `npm install` put in node_modules (the
 * `bun` devDependency) on src/main.ts with the same arguments, terminal and exit code.
 * Under Bun already (`bunx parley`) it uses that Bun. Plain JavaScript: Node cannot run .ts.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, "..", "main.ts");

function findBun() {
  if (process.versions.bun) return process.execPath;
  try {
    // The npm package "bun" installs its binary as bin/bun.exe on every platform.
    return join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe");
  } catch {
    return "bun";
  }
}

const child = spawn(findBun(), [main, ...process.argv.slice(2)], { stdio: "inherit" });
// Ctrl-C reaches both processes through the terminal; a signal sent to this shim alone (a
// process manager's SIGTERM) is passed on, so the server still shuts down cleanly.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`parley: cannot start Bun (${error.message}); run \`npm install\` first`);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
