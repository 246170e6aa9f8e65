import type { Database } from "bun:sqlite";
import { TENANT_OPS } from "../sql/tenants.ts";
import type { Op, Ops } from "../statements.ts";
import type { TenantQueries } from "../store-accounts.ts";
import type { SyncOf } from "./gate.ts";
import { lookupVersionReader, markLookupWrite } from "./lookup-version.ts";
import { SQLITE, sqliteOps } from "./statements.ts";

const WRITES = /^\s*(INSERT|UPDATE|DELETE)\b/i;

/** Each shared statement that writes `tenants` or `chatbots` bumps the lookup version, found by its text so none is forgotten. */
export function sqliteLookupOps<T>(sqlite: Database, ops: Ops<T>): SyncOf<T> {
  const functions = sqliteOps(sqlite, ops) as Record<string, (...input: unknown[]) => unknown>;
  for (const [name, op] of Object.entries(ops as Record<string, Op<unknown[], unknown>>)) {
    const run = functions[name];
    if (!run || !WRITES.test(op.text(SQLITE, {}))) continue;
    functions[name] = (...input) => {
      markLookupWrite(sqlite);
      return run(...input);
    };
  }
  return functions as SyncOf<T>;
}

export function sqliteTenants(sqlite: Database): SyncOf<TenantQueries> {
  return { ...sqliteLookupOps(sqlite, TENANT_OPS), findLookupVersion: lookupVersionReader(sqlite) };
}
