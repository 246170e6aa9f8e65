import type { Database } from "bun:sqlite";
import { TENANT_OPS } from "../sql/tenants.ts";
import type { TenantQueries } from "../store-accounts.ts";
import type { SyncOf } from "./gate.ts";
import { lookupVersionReader, markLookupWrite } from "./lookup-version.ts";
import { sqliteOps } from "./statements.ts";

/** The shared statements of `functions` named in `writes` bump this connection's lookup version first. */
export function markingLookupWrites<T extends object>(
  sqlite: Database,
  functions: T,
  writes: ReadonlyArray<keyof T>,
): T {
  const marked = { ...functions };
  for (const name of writes) {
    const write = functions[name] as (...input: unknown[]) => unknown;
    marked[name] = ((...input: unknown[]) => {
      markLookupWrite(sqlite);
      return write(...input);
    }) as T[keyof T];
  }
  return marked;
}

export function sqliteTenants(sqlite: Database): SyncOf<TenantQueries> {
  return {
    ...markingLookupWrites(sqlite, sqliteOps(sqlite, TENANT_OPS), [
      "insertTenant",
      "updateTenantPlan",
      "insertChatbot",
    ]),
    findLookupVersion: lookupVersionReader(sqlite),
  };
}
