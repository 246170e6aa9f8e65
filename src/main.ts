#!/usr/bin/env bun
import { runCli } from "./cli/run.ts";
import { processIo } from "./cli/io.ts";

const code = await runCli(process.argv.slice(2), processIo);
process.exit(code);
