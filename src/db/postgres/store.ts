import type { SQL } from "bun";
import type { StorageControls, Store, StoreQueries, Transaction } from "../store.ts";
import { pgAnalytics } from "./analytics.ts";
import { pgTenants } from "./accounts.ts";
import { API_KEY_OPS, REFRESH_TOKEN_OPS, SETTING_OPS, USER_OPS } from "../sql/accounts.ts";
import { TEST_SET_OPS, UNANSWERED_OPS } from "../sql/test-set.ts";
import { pgOps } from "./statements.ts";
import { pgChatSessions, pgUsage } from "./chat.ts";
import { BOT_CONFIG_OPS } from "../sql/tenants.ts";
import { CAPTURE_OPS } from "../sql/chat.ts";
import { LIVE_EVENT_OPS } from "../sql/live.ts";
import { DESK_OPS } from "../sql/desk.ts";
import { CANNED_REPLY_OPS } from "../sql/inbox.ts";
import { pgInbox } from "./inbox.ts";
import { pgCounters } from "./counters.ts";
import { pgDeliveryQueue } from "./delivery-queue.ts";
import { pgExec, whileOpen, type PgExec } from "./exec.ts";
import { lazyTransaction } from "./lazy-transaction.ts";
import { INTEGRATION_OPS } from "../sql/integrations.ts";
import { pgKnowledge } from "./knowledge.ts";
import { KNOWLEDGE_SOURCE_OPS } from "../sql/knowledge-sources.ts";
import { pgMaintenance, pgPrivacy } from "./privacy.ts";
import { DEAD_LETTER_OPS } from "../sql/dead-letters.ts";
import { DELIVERY_OPS, OUTBOX_OPS, WEBHOOK_RULE_OPS } from "../sql/webhooks.ts";

/** Every aggregate over one executor: the pool, or an open transaction's connection. */
export function pgQueries(exec: PgExec): StoreQueries {
  return {
    tenants: pgTenants(exec),
    users: pgOps(exec, USER_OPS),
    apiKeys: pgOps(exec, API_KEY_OPS),
    refreshTokens: pgOps(exec, REFRESH_TOKEN_OPS),
    chatSessions: pgChatSessions(exec),
    usage: pgUsage(exec),
    captures: pgOps(exec, CAPTURE_OPS),
    botConfigs: pgOps(exec, BOT_CONFIG_OPS),
    analytics: pgAnalytics(exec),
    integrations: pgOps(exec, INTEGRATION_OPS),
    knowledge: pgKnowledge(exec),
    knowledgeSources: pgOps(exec, KNOWLEDGE_SOURCE_OPS),
    liveEvents: pgOps(exec, LIVE_EVENT_OPS),
    desk: pgOps(exec, DESK_OPS),
    inbox: pgInbox(exec),
    cannedReplies: pgOps(exec, CANNED_REPLY_OPS),
    settings: pgOps(exec, SETTING_OPS),
    privacy: pgPrivacy(exec),
    maintenance: pgMaintenance(exec),
    webhookRules: pgOps(exec, WEBHOOK_RULE_OPS),
    outbox: pgOps(exec, OUTBOX_OPS),
    deliveries: pgOps(exec, DELIVERY_OPS),
    deadLetters: pgOps(exec, DEAD_LETTER_OPS),
    deliveryQueue: pgDeliveryQueue(exec),
    testSet: pgOps(exec, TEST_SET_OPS),
    unanswered: pgOps(exec, UNANSWERED_OPS),
  };
}

/** SQLSTATEs after which the whole transaction may simply run again: deadlock, serialization. */
const RETRYABLE = new Set(["40P01", "40001"]);
const MAX_TRIES = 3;

/** SQLSTATEs after which a write probe only waited for others' locks: lock or statement timeout, deadlock, serialization. */
const PROBE_BUSY = new Set(["55P03", "57014", "40P01", "40001"]);

function sqlState(error: unknown): string | null {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "string" ? errno : null;
}

/**
 * The PostgreSQL store: Bun's built-in client (no native addon, the binary stays one file),
 * a pool of connections, every aggregate directly async. A transaction takes a pooled
 * connection of its own (`BEGIN … COMMIT`) at its first write (lazy-transaction.ts), so no gate
 * and no group commit: other requests' statements run beside it. `onCommit` hooks run after COMMIT. A deadlock or serialization failure runs
 * the callback again (at most 3 times): callbacks do no I/O but through `tx` (src/db/store.ts).
 */
export function createPostgresStore(sql: SQL): Store {
  const pool = pgExec(sql, false);
  const outside = pgQueries(pool);

  async function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const hooks: Array<() => void> = [];
      const lazy = lazyTransaction(pool);
      let open = true;
      const tx: Transaction = {
        ...pgQueries(whileOpen(lazy.exec, () => open)),
        onCommit: (hook) => void hooks.push(hook),
      };
      try {
        let result: T;
        try {
          result = await work(tx);
        } catch (error) {
          open = false;
          await lazy.end(false);
          throw error;
        }
        open = false;
        await lazy.end(true);
        for (const hook of hooks) hook();
        return result;
      } catch (error) {
        if (attempt >= MAX_TRIES || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
      }
    }
  }

  const storage: StorageControls = {
    probeWrite: async () => {
      try {
        await pool.transaction(async (exec) => {
          await exec.run(
            "INSERT INTO settings (key, value) VALUES ('parley_probe', '1') ON CONFLICT (key) DO UPDATE SET value = '1'",
          );
          await exec.run("DELETE FROM settings WHERE key = 'parley_probe'");
        });
        return "ok";
      } catch (error) {
        // As over SQLite (src/db/write-lock.ts): a full disk, or a write that waits its turn
        // behind another's lock, is trouble that passes; anything else — the server gone, the
        // pool closed — is not ready (/readyz answers 503 not_ready).
        const state = sqlState(error);
        if (state === "53100") return "storage_full";
        if (state !== null && PROBE_BUSY.has(state)) return "busy";
        throw error;
      }
    },
    // PostgreSQL takes row locks, not a file lock, and its waits never block the thread.
    neverWaitForLocks: () => {},
    // The lock lives as long as a transaction on a connection of its own; `work` runs its
    // statements on other connections meanwhile. Another instance's try fails at once.
    exclusively: async (lock, work) => {
      let skipped = false;
      const result = await pool.transaction(async (exec) => {
        const got = await exec.get<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked", [
          `parley:${lock}`,
        ]);
        if (!got?.locked) {
          skipped = true;
          return null;
        }
        return work();
      });
      return skipped ? null : result;
    },
  };

  return { kind: "postgres", storage, counters: pgCounters(pool), ...outside, transaction };
}
