#!/usr/bin/env bun
// First: it sets the mode Elysia reads when it loads (see the file).
import "./cli/production-mode.ts";
import { runCli } from "./cli/run.ts";
import { processIo } from "./cli/io.ts";

// No top-level await: the binary is compiled to bytecode, which loads as CommonJS.
void runCli(process.argv.slice(2), processIo).then((code) => process.exit(code));
