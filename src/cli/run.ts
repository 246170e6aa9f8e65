import pkg from "../../package.json" with { type: "json" };
import { ConfigError } from "../config.ts";
import { AppError } from "../lib/app-error.ts";
import { apikeyCommand } from "./apikey.ts";
import { backupCommand, restoreCommand } from "./backup.ts";
import { botCommand } from "./bot.ts";
import { copyCommand } from "./copy.ts";
import { dlqCommand } from "./dlq.ts";
import { knowledgeCommand } from "./knowledge.ts";
import { COMMAND_HELP, MAIN_HELP } from "./help.ts";
import { UsageError, type CliIo } from "./io.ts";
import { migrateCommand } from "./migrate.ts";
import { leadCommand, sessionCommand } from "./privacy.ts";
import { serveCommand } from "./serve.ts";
import { tenantCommand } from "./tenant.ts";
import { tlsCommand } from "./tls.ts";
import { userCommand } from "./user.ts";

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  tenant: tenantCommand,
  user: userCommand,
  apikey: apikeyCommand,
  dlq: dlqCommand,
  lead: leadCommand,
  session: sessionCommand,
  backup: backupCommand,
  restore: restoreCommand,
  copy: copyCommand,
  tls: tlsCommand,
  bot: botCommand,
  knowledge: knowledgeCommand,
};

/**
 * Flags every command shares may also come before the command (`parley --db FILE tenant list`):
 * they are moved after it, where the command's own parser reads them.
 */
function hoistGlobalFlags(argv: string[]): string[] {
  const global: string[] = [];
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index] ?? "";
    if (arg === "--db") {
      global.push(...argv.slice(index, index + 2));
      index += 2;
    } else if (arg.startsWith("--db=") || arg === "--json") {
      global.push(arg);
      index += 1;
    } else break;
  }
  if (global.length === 0 || index >= argv.length) return argv;
  const [command, ...rest] = argv.slice(index);
  return [command ?? "", ...global, ...rest];
}

/** Exit code for an error: 2 for what the caller typed wrong, 1 for everything else. */
function reportError(error: unknown, command: string | undefined, io: CliIo): number {
  if (error instanceof UsageError) {
    io.err(`parley: ${error.message} (see: parley ${command ? `${command} ` : ""}--help)`);
    return 2;
  }
  if (error instanceof ConfigError) {
    io.err(`parley: ${error.message}`);
    return 2;
  }
  if (error instanceof AppError) {
    io.err(`parley: ${error.message}`);
    return error.status === 422 ? 2 : 1;
  }
  io.err(`parley: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  return 1;
}

/** Dispatches argv to a command; returns the exit code instead of exiting, so tests run it in-process. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = hoistGlobalFlags(argv);
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.out(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v") {
    io.out(`parley ${pkg.version}`);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.err(`parley: unknown command '${command}' (see: parley --help)`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(COMMAND_HELP[command] ?? MAIN_HELP);
    return 0;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    return reportError(error, command, io);
  }
}
