/**
 * The database is not broken but cannot take a write right now: a lock (SQLITE_BUSY/LOCKED, a
 * PostgreSQL lock or statement timeout, too many connections, the server going away) or a full
 * disk (SQLITE_FULL, SQLSTATE 53100). Answered 503 with Retry-After, never 500.
 */
export type StorageTrouble = "busy" | "storage_full";

/** SQLSTATEs of a server that is gone or not accepting connections. */
const PG_UNREACHABLE = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);
/** Also busy: lock or statement timeout, too many connections. */
const PG_BUSY = new Set([...PG_UNREACHABLE, "55P03", "57014", "53300"]);
const PG_CONNECTION_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
]);

type Cause = { code?: unknown; errno?: unknown; cause?: unknown };

/** The first answer `test` gives along an error's cause chain (4 deep). */
function alongCauses<T>(error: unknown, test: (current: Cause) => T | null): T | null {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") return null;
    const found = test(current as Cause);
    if (found !== null) return found;
    current = (current as Cause).cause;
  }
  return null;
}

const pgSqlState = ({ code, errno }: Cause): string | null =>
  typeof code === "string" && code.startsWith("ERR_POSTGRES_") && typeof errno === "string" ? errno : null;

function troubleOf(current: Cause): StorageTrouble | null {
  const { code } = current;
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
    return code === "SQLITE_FULL" ? "storage_full" : null;
  }
  const state = pgSqlState(current);
  if (state === "53100") return "storage_full";
  if ((state !== null && PG_BUSY.has(state)) || (typeof code === "string" && PG_CONNECTION_CODES.has(code)))
    return "busy";
  return null;
}

/** A busy store that is in fact out of reach (PostgreSQL down, restarting or refusing connections). */
export const isStorageUnreachable = (error: unknown): boolean =>
  alongCauses(error, (current) => {
    const state = pgSqlState(current);
    const unreachable =
      (typeof current.code === "string" && PG_CONNECTION_CODES.has(current.code)) ||
      (state !== null && PG_UNREACHABLE.has(state));
    return unreachable || null;
  }) === true;

export const storageTroubleOf = (error: unknown): StorageTrouble | null => alongCauses(error, troubleOf);

/** Text PostgreSQL cannot store (a NUL: 22021; outside its encoding: 22P05) is the client's input: 400. */
export const isUnstorableText = (error: unknown): boolean =>
  alongCauses(error, ({ errno }) => errno === "22021" || errno === "22P05" || null) === true;
