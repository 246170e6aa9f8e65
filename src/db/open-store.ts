import { SQL } from "bun";
import { randomUUID } from "node:crypto";
import { createSignal, type Signal } from "../lib/signal.ts";
import { openDatabase, type OpenOptions } from "./client.ts";
import { applyMigrations, type MigrationResult } from "./migrate.ts";
import { applyPgMigrations } from "./postgres/migrations.ts";
import { createPostgresStore } from "./postgres/store.ts";
import type { Store } from "./store.ts";

/** `PARLEY_DB` / `--db`: a postgres:// (or postgresql://) URL selects PostgreSQL; anything else is a SQLite path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The location for messages and logs: a URL's password is never printed. */
export function describeLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}

/** An open store of either kind, with what the CLI and the server need around it. */
export interface OpenedStore {
  readonly store: Store;
  readonly kind: Store["kind"];
  /** The scheduler's wake-up; on PostgreSQL it reaches every instance. */
  readonly deliveriesEnqueued: Signal;
  /** The front desk streams' wake-up (src/frontdesk/live-hub.ts). */
  readonly liveEventsWritten: Signal;
  migrate(nowMs: number): Promise<MigrationResult>;
  /** Waits for wake-ups still being sent, then closes the connection(s). */
  close(): Promise<void>;
}

export interface OpenStoreOptions extends OpenOptions {
  maxConnections?: number;
}

export function openStore(location: string, options: OpenStoreOptions = {}): OpenedStore {
  if (isPostgresUrl(location)) return openPostgres(location, options);
  const handle = openDatabase(location, options);
  return {
    get store() {
      return handle.store;
    },
    kind: "sqlite",
    deliveriesEnqueued: createSignal(),
    liveEventsWritten: createSignal(),
    migrate: async (nowMs) => applyMigrations(handle.sqlite, nowMs),
    close: async () => handle.close(),
  };
}

export const DELIVERIES_CHANNEL = "parley_deliveries";
export const LIVE_EVENTS_CHANNEL = "parley_live";

function openPostgres(url: string, options: OpenStoreOptions): OpenedStore {
  const sql = new SQL({ url, max: options.maxConnections ?? 16 });
  const store = createPostgresStore(sql);
  const deliveriesEnqueued = createClusterSignal(sql, DELIVERIES_CHANNEL);
  const liveEventsWritten = createClusterSignal(sql, LIVE_EVENTS_CHANNEL);
  return {
    store,
    kind: "postgres",
    deliveriesEnqueued,
    liveEventsWritten,
    // The first statement of every command: a wrong URL or password is said naming the database.
    migrate: (nowMs) =>
      applyPgMigrations(sql, nowMs).catch((error: unknown) => {
        throw new Error(
          `cannot use the PostgreSQL database ${describeLocation(url)}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }),
    async close() {
      // Messages counted ahead on unlimited plans go back, so GET /usage shows those accepted.
      await store.usage.returnHeldMessages().catch(() => 0);
      await deliveriesEnqueued.close();
      await liveEventsWritten.close();
      await sql.close();
    },
  };
}

/**
 * A Signal shared by every process on one database (NOTIFY, sent from `onCommit`). LISTEN opens
 * at the first subscriber, so a CLI command only notifies; polling covers a lost notification.
 */
export interface ClusterSignal extends Signal {
  /** The notifications sent so far have reached the database. */
  flush(): Promise<void>;
  /** The current subscription's LISTEN is acknowledged (at once without one). */
  whenListening(): Promise<void>;
  /** flush(), then ends the subscription. */
  close(): Promise<void>;
}

export function createClusterSignal(sql: SQL, channel: string): ClusterSignal {
  const local = createSignal();
  const self = randomUUID();
  const sending = new Set<Promise<void>>();
  let subscription: Promise<SQL.ListenSubscription> | null = null;
  let listeners = 0;
  const endSubscription = async () => {
    const ending = subscription;
    subscription = null;
    await ending?.then((held) => held.unlisten()).catch(() => undefined);
  };
  return {
    notify() {
      local.notify();
      const sent: Promise<void> = sql
        .notify(channel, self)
        .catch(() => undefined)
        .finally(() => sending.delete(sent));
      sending.add(sent);
    },
    subscribe(listener) {
      const unsubscribe = local.subscribe(listener);
      listeners++;
      subscription ??= sql.listen(channel, (payload) => {
        if (payload !== self) local.notify();
      });
      subscription.catch(() => undefined);
      return () => {
        unsubscribe();
        if (--listeners === 0) void endSubscription();
      };
    },
    async flush() {
      await Promise.all([...sending]);
    },
    async whenListening() {
      await subscription;
    },
    async close() {
      await Promise.all([...sending]);
      await endSubscription();
    },
  };
}
