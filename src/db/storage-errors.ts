/**
 * What SQLite says when the database is not broken but cannot take a write right now: another
 * process holds the write lock (SQLITE_BUSY / SQLITE_LOCKED), or the disk (or max_page_count)
 * is full (SQLITE_FULL). Both are answered 503 with Retry-After, never 500, and both pass.
 */
export type StorageTrouble = "busy" | "storage_full";

function sqliteCode(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") return null;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function storageTroubleOf(error: unknown): StorageTrouble | null {
  const code = sqliteCode(error);
  if (!code) return null;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  if (code === "SQLITE_FULL") return "storage_full";
  return null;
}
