import { copySqliteToPostgres, type CopyProgress } from "../db/copy.ts";
import { describeLocation, isPostgresUrl } from "../db/open-store.ts";
import { systemClock } from "../lib/clock.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { UsageError, type CliIo } from "./io.ts";

/** Where progress goes: standard error, when it is a terminal. */
export interface ProgressTerminal {
  readonly isTTY: boolean;
  write(text: string): void;
}

const stderrTerminal: ProgressTerminal = {
  isTTY: Boolean(process.stderr.isTTY),
  write: (text) => void process.stderr.write(text),
};

/**
 * `parley copy --from FILE --to postgres://…`: moves a SQLite install to PostgreSQL
 * (docs/scale-out.md). All or nothing; on a terminal, progress per table on stderr.
 */
export async function copyCommand(
  argv: string[],
  io: CliIo,
  terminal: ProgressTerminal = stderrTerminal,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { from: { type: "string" }, to: { type: "string" } });
  if (positionals.length > 0)
    throw new UsageError("usage: parley copy --from FILE --to postgres://USER:PASSWORD@HOST:5432/DB");
  const from = requireFlag(values.from, "from");
  const to = requireFlag(values.to ?? io.env.PARLEY_DB, "to");
  if (isPostgresUrl(from)) throw new UsageError("--from must be a SQLite file");
  if (!isPostgresUrl(to)) throw new UsageError("--to must be a postgres:// URL");
  const progress = (step: CopyProgress) => {
    if (!terminal.isTTY || values.json) return;
    terminal.write(
      `\r\x1b[2K${step.table}: ${step.done.toLocaleString("en")} / ${step.total.toLocaleString("en")} rows`,
    );
    if (step.done === step.total) terminal.write("\n");
  };
  const report = await copySqliteToPostgres(from, to, systemClock.now(), progress);
  if (values.json) io.out(JSON.stringify(report));
  else
    io.out(
      `copied ${report.rows} rows in ${report.tables.length} tables from ${from} to ${describeLocation(to)}; row counts checked`,
    );
  return 0;
}
