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

/**
 * The lookup version and the tenant's session $n (all columns null when none): every
 * reservation reads them with its count, so a chat message's reads and count are one round trip.
 */
const readsOf = (sessionColumns: string, sessionParam: string): string =>
  `(SELECT version::float8 FROM parley_lookup_version WHERE id = 1) AS version, ${sessionColumns}
  FROM (SELECT 1 AS one) AS one LEFT JOIN chat_sessions ON id = ${sessionParam}::text AND tenant_id = $1`;

/**
 * A single message's count commits without waiting for the WAL flush (synchronous_commit off
 * for its statement's own transaction): the counter row is free again at once, where a flush per message made every
 * message of a tenant wait for the ones before it. Nothing durable is lost: WAL is flushed in
 * order, so the turn's own (synchronous) commit, later, makes the count durable first; a crash
 * can only drop counts of turns that never committed.
 */
const UNFLUSHED = "unflushed AS (SELECT set_config('synchronous_commit', 'off', true) AS off)";

/**
 * One more message for ($1 tenant, $2 period) when it stays clear of the plan's lines ($3
 * quota; $4 threshold %), as the SQLite twin; the counter as it stands, in the same statement.
 * The first message of a period is inserted only when it is clear itself (a quota of 2 or
 * more). `current` is read from the statement's snapshot: after a wait for the row it may be
 * behind, which only sends the turn to the exact count (incrementMessages).
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

/**
 * $3 more messages for ($1 tenant, $2 period) of an unlimited plan: no line to keep clear of.
 * Its commit waits for the flush, unlike a single message's: the block's other messages are
 * used later by turns that do not count them again, so after a PostgreSQL crash it must be on
 * disk. One flush per block, the row locked meanwhile.
 */
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

/**
 * The usage aggregate on PostgreSQL. A tenant on an unlimited plan is counted in blocks of
 * MESSAGE_BLOCK: one write per block, and the block's other messages held in `held` by this
 * instance, each then taking only the reads. A plan with a quota is counted one message at a
 * time, so its lines stay exact.
 */
export function pgUsage(db: PgExec, held: HeldMessages, batches: ChatBatches): UsageQueries {
  const sessionColumns = pgColumns(chatSessions);
  const [oneSql, blockSql, onlyReadsSql] = [
    reserveOneSql(sessionColumns),
    reserveBlockSql(sessionColumns),
    sessionReadsSql(sessionColumns),
  ];
  /** A held message back (its turn rolled back): the next message of the tenant takes it. */
  const putBack = (tenantId: string, period: string) => () => {
    const entry = held.get(tenantId);
    if (entry && entry.period === period) entry.left++;
    else held.set(tenantId, { period, left: 1, counting: null });
  };
  /** What a tenant holds for another period or a plan with a quota goes back on the counter. */
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
    // Committed at once, outside the turn's transaction: the tenant's counter row is locked for
    // this statement only, not until the turn commits. A rollback of the turn takes it back.
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
            // A held message's reads only, shared with other requests' (chat-batch.ts).
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
    // At shutdown. A block still being counted is waited for; then what the tenants hold leaves
    // the map at once (a later message counts a block of its own) and goes back in one statement.
    // Only unused messages are held, so no counter drops below the messages accepted.
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
    // One statement: concurrent increments from several instances are each counted once. Its
    // twin on SQLite is an upsert and a read (src/db/sqlite/chat.ts).
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
