/**
 * What the database says when it is not broken but cannot take a write right now. SQLite:
 * another process holds the write lock (SQLITE_BUSY / SQLITE_LOCKED), or the disk (or
 * max_page_count) is full (SQLITE_FULL). PostgreSQL: a lock or statement timeout, too many
 * connections, the server going away (restart, failover), or a full disk (SQLSTATE 53100).
 * All are answered 503 with Retry-After, never 500, and all pass.
 */
export type StorageTrouble = "busy" | "storage_full";

/** SQLSTATEs that mean "try again shortly": lock/statement timeout, too many connections, shutting down. */
const PG_BUSY = new Set([
  "55P03",
  "57014",
  "53300",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
]);
const PG_CONNECTION_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
]);

function troubleOf(current: object): StorageTrouble | null {
  const { code, errno } = current as { code?: unknown; errno?: unknown };
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
    if (code === "SQLITE_FULL") return "storage_full";
    return null;
  }
  if (typeof code === "string" && code.startsWith("ERR_POSTGRES_") && typeof errno === "string") {
    if (errno === "53100") return "storage_full";
    if (PG_BUSY.has(errno)) return "busy";
  }
  if (typeof code === "string" && PG_CONNECTION_CODES.has(code)) return "busy";
  return null;
}

/** SQLSTATEs of a server that is gone or not accepting connections: busy, but not "with another process". */
const PG_UNREACHABLE = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);

/** A busy store that is in fact out of reach (PostgreSQL down, restarting or refusing connections). */
export function isStorageUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") return false;
    const { code, errno } = current as { code?: unknown; errno?: unknown };
    if (typeof code === "string" && PG_CONNECTION_CODES.has(code)) return true;
    if (
      typeof code === "string" &&
      code.startsWith("ERR_POSTGRES_") &&
      typeof errno === "string" &&
      PG_UNREACHABLE.has(errno)
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function storageTroubleOf(error: unknown): StorageTrouble | null {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") return null;
    const trouble = troubleOf(current);
    if (trouble) return trouble;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * PostgreSQL refuses text SQLite stores: a NUL character (SQLSTATE 22021, "invalid byte
 * sequence") or one its encoding cannot hold (22P05). That is the client's input, not a
 * server fault: answered 400, never 500.
 */
export function isUnstorableText(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") return false;
    const errno = (current as { errno?: unknown }).errno;
    if (errno === "22021" || errno === "22P05") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
