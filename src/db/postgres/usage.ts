import type { UsageCounterRow } from "../rows.ts";
import { USAGE_OPS } from "../sql/chat.ts";
import type { MessageReservation, UsageQueries } from "../store-chat.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { type ChatBatches, type SessionReads, sessionReadsSql } from "./chat-batch.ts";
import { chatSessions } from "./schema.ts";
import { pgOps } from "./statements.ts";

/** Messages an instance counts at once for a tenant on an unlimited plan (docs/scale-out.md#chat-messages). */
export const MESSAGE_BLOCK = 16;

/** Messages this instance counted for a tenant and has not used yet, all of one period. */
interface Held {
  period: string;
  left: number;
  /** A block being counted: the tenant's other messages wait for it rather than count one each. */
  counting: Promise<unknown> | null;
}

/** The instance's held messages by tenant: one map per store, shared by every transaction. */
export type HeldMessages = Map<string, Held>;

/** Read with every reservation, so a message's reads and count are one round trip. */
const readsOf = (sessionColumns: string, sessionParam: string): string =>
  `(SELECT version::float8 FROM parley_lookup_version WHERE id = 1) AS version, ${sessionColumns}
  FROM (SELECT 1 AS one) AS one LEFT JOIN chat_sessions ON id = ${sessionParam}::text AND tenant_id = $1`;

/**
 * The count's commit skips the WAL flush, which made a tenant's messages wait in single file.
 * Nothing durable is lost: WAL flushes in order, so the turn's own commit makes the count durable.
 */
const UNFLUSHED = "unflushed AS (SELECT set_config('synchronous_commit', 'off', true) AS off)";

/**
 * One more message when it stays clear of the plan's lines ($3 quota, $4 threshold %). `current`
 * is the statement's snapshot and may be behind after a wait: that only sends the turn to the exact count.
 */
const reserveOneSql = (sessionColumns: string): string => `WITH ${UNFLUSHED},
  counted AS (
    INSERT INTO usage_counters AS u (tenant_id, period, messages)
    SELECT $1, $2, 1 WHERE 1 <= $3::bigint AND 100 < $3::bigint * $4::bigint
    ON CONFLICT (tenant_id, period) DO UPDATE SET messages = u.messages + 1
    WHERE u.messages + 1 <= $3::bigint AND (u.threshold_notified_at IS NOT NULL OR (u.messages + 1) * 100 < $3::bigint * $4::bigint)
    RETURNING u.messages
  )
  SELECT (SELECT messages FROM counted) AS counted,
    (SELECT messages FROM usage_counters WHERE tenant_id = $1 AND period = $2) AS current,
    (SELECT off FROM unflushed) AS "unflushed", ${readsOf(sessionColumns, "$5")}`;

/** A block for an unlimited plan; its commit waits for the flush: later turns use it without counting again. */
const reserveBlockSql = (sessionColumns: string): string => `WITH counted AS (
    INSERT INTO usage_counters AS u (tenant_id, period, messages) VALUES ($1, $2, $3)
    ON CONFLICT (tenant_id, period) DO UPDATE SET messages = u.messages + $3
    RETURNING u.messages
  )
  SELECT (SELECT messages FROM counted) AS counted, ${readsOf(sessionColumns, "$4")}`;

type Counted = SessionReads & { counted: number | null; current?: number | null; unflushed?: string };

const reservation = (reserved: boolean, messages: number | null, row: SessionReads | null): MessageReservation => {
  if (!row) throw new Error("the usage reservation returned no row");
  const { counted: _counted, current: _current, unflushed: _unflushed, version, ...session } = row as Counted;
  return {
    reserved,
    messages,
    lookupVersion: String(version ?? 0),
    session: session.id === null ? null : session,
  };
};

/** Unlimited plans count in blocks held by this instance; a quota counts each message, so its lines stay exact. */
export function pgUsage(db: PgExec, held: HeldMessages, batches: ChatBatches): UsageQueries {
  const sessionColumns = pgColumns(chatSessions);
  const [oneSql, blockSql, onlyReadsSql] = [
    reserveOneSql(sessionColumns),
    reserveBlockSql(sessionColumns),
    sessionReadsSql(sessionColumns),
  ];
  /** A rolled-back turn's held message goes to the tenant's next one. */
  const putBack = (tenantId: string, period: string) => () => {
    const entry = held.get(tenantId);
    if (entry && entry.period === period) entry.left++;
    else held.set(tenantId, { period, left: 1, counting: null });
  };
  /** Held messages of another period, or of a plan that now has a quota, go back on the counter. */
  async function release(tenantId: string, entry: Held): Promise<void> {
    held.delete(tenantId);
    if (entry.left > 0)
      await db.independent(
        "UPDATE usage_counters SET messages = messages - $3 WHERE tenant_id = $1 AND period = $2",
        [tenantId, entry.period, entry.left],
        () => null,
      );
  }

  return {
    ...pgOps(db, USAGE_OPS),
    // Independent of the turn's transaction, so the counter row is locked for this statement only.
    reserveMessage: async (tenantId, period, limits, sessionId) => {
      const entry = held.get(tenantId);
      if (entry && (entry.period !== period || limits.quota !== null)) await release(tenantId, entry);
      if (limits.quota !== null) {
        const row = await db.independent<Counted>(
          oneSql,
          [tenantId, period, limits.quota, limits.thresholdPercent, sessionId],
          (reserved) =>
            reserved?.counted == null
              ? null
              : {
                  text: "UPDATE usage_counters SET messages = messages - 1 WHERE tenant_id = $1 AND period = $2",
                  params: [tenantId, period],
                },
        );
        const reserved = row !== null && row.counted !== null;
        return reservation(reserved, reserved ? null : (row?.current ?? 0), row);
      }
      for (;;) {
        const mine = held.get(tenantId);
        if (mine && mine.left > 0) {
          mine.left--;
          return reservation(
            true,
            null,
            await db.independent<SessionReads>(
              onlyReadsSql,
              [[tenantId], [sessionId]],
              () => putBack(tenantId, period),
              () => batches.reads.run({ tenantId, sessionId }),
            ),
          );
        }
        if (!mine?.counting) break;
        await mine.counting.catch(() => undefined);
        // The month may have turned meanwhile: what the tenant holds now is another period's.
        const now = held.get(tenantId);
        if (now && now.period !== period) await release(tenantId, now);
      }
      const block = held.get(tenantId) ?? { period, left: 0, counting: null };
      held.set(tenantId, block);
      const counting = db.independent<Counted>(blockSql, [tenantId, period, MESSAGE_BLOCK, sessionId], () =>
        putBack(tenantId, period),
      );
      block.counting = counting;
      try {
        const row = await counting;
        block.left += MESSAGE_BLOCK - 1;
        return reservation(true, null, row);
      } finally {
        block.counting = null;
      }
    },
    // At shutdown, in one statement; only unused messages are held, so no counter drops below those accepted.
    returnHeldMessages: async () => {
      await Promise.all([...held.values()].map((entry) => entry.counting?.catch(() => undefined)));
      const entries = [...held].filter(([, entry]) => entry.left > 0);
      held.clear();
      if (entries.length === 0) return 0;
      await db.run(
        `UPDATE usage_counters AS u SET messages = u.messages - r.left_over
         FROM unnest($1::text[], $2::text[], $3::int[]) AS r(tenant_id, period, left_over)
         WHERE u.tenant_id = r.tenant_id AND u.period = r.period`,
        [
          entries.map(([tenantId]) => tenantId),
          entries.map(([, entry]) => entry.period),
          entries.map(([, entry]) => entry.left),
        ],
      );
      return entries.reduce((sum, [, entry]) => sum + entry.left, 0);
    },
    // One statement: concurrent increments from several instances are each counted once.
    incrementMessages: async (tenantId, period) => {
      const row = await db.get<Pick<UsageCounterRow, "messages" | "thresholdNotifiedAt">>(
        `INSERT INTO usage_counters (tenant_id, period, messages) VALUES ($1, $2, 1)
         ON CONFLICT (tenant_id, period) DO UPDATE SET messages = usage_counters.messages + 1
         RETURNING messages, threshold_notified_at::float8 AS "thresholdNotifiedAt"`,
        [tenantId, period],
      );
      if (!row) throw new Error("the usage counter upsert returned no row");
      return row;
    },
  };
}
