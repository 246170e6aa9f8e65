import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { toPage, type Page } from "../lib/page.ts";

export interface DeadLetterView {
  dead_letter_id: string;
  webhook_id: string;
  tenant_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  dead_at: string;
  expires_at: string;
}

interface DeadLetterRow {
  id: string;
  delivery_id: string;
  tenant_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  dead_at: number;
  expires_at: number;
}

const toView = (row: DeadLetterRow): DeadLetterView => ({
  dead_letter_id: row.id,
  webhook_id: row.delivery_id,
  tenant_id: row.tenant_id,
  rule_id: row.rule_id,
  event: row.event,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  dead_at: toIso(row.dead_at),
  expires_at: toIso(row.expires_at),
});

export interface DeadLetterFilter {
  /** null = every tenant (the administrator's CLI). */
  tenantId: string | null;
  event?: string;
  /** Only dead letters that died at or after this time (epoch ms). */
  sinceMs?: number;
}

const statements = preparedFor((sqlite) => ({
  // Expired rows are hidden even before the sweeper has run: retention is exact.
  list: sqlite.prepare<DeadLetterRow, [string | null, string | null, number, number, string | null, number]>(
    `SELECT * FROM dead_letters
     WHERE (?1 IS NULL OR tenant_id = ?1) AND (?2 IS NULL OR event = ?2) AND dead_at >= ?3 AND expires_at > ?4
       AND (?5 IS NULL OR id < ?5)
     ORDER BY id DESC LIMIT ?6`,
  ),
  byId: sqlite.prepare<DeadLetterRow, [string, number]>("SELECT * FROM dead_letters WHERE id = ? AND expires_at > ?"),
  deleteOne: sqlite.prepare("DELETE FROM dead_letters WHERE id = ?"),
  // A fresh cycle: same webhook_id, attempts from 1 again, due now.
  restart: sqlite.prepare(
    `UPDATE deliveries SET status = 'pending', attempts = 0, cycle = cycle + 1, next_attempt_at = ?, lease_token = NULL,
       last_status_code = NULL, last_error = NULL, completed_at = NULL, updated_at = ?
     WHERE id = ? AND status = 'dead'`,
  ),
}));

export function listDeadLetters(deps: Deps, filter: DeadLetterFilter, page: { limit: number; cursor?: string }): Page<DeadLetterView> {
  const rows = statements(deps.sqlite).list.all(filter.tenantId, filter.event ?? null, filter.sinceMs ?? 0, deps.clock.now(), page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, toView);
}

/** A dead letter of the tenant (or of any tenant when tenantId is null). Another tenant's is "not found". */
export function getDeadLetter(deps: Deps, tenantId: string | null, deadLetterId: string): DeadLetterView {
  const row = statements(deps.sqlite).byId.get(deadLetterId, deps.clock.now());
  if (!row || (tenantId !== null && row.tenant_id !== tenantId)) throw notFound("dead_letter");
  return toView(row);
}

export interface RetriggerResult {
  retriggered: Array<{ dead_letter_id: string; webhook_id: string }>;
}

/**
 * Moves dead letters back to a fresh 4-attempt cycle with the same webhook_id, due at once.
 * The dead-letter row goes; if the new cycle fails too, a new one is written with a new
 * retention. All-or-nothing: an unknown id fails the whole call before anything changes.
 */
export function retriggerDeadLetters(deps: Deps, tenantId: string | null, deadLetterIds: readonly string[]): RetriggerResult {
  const sql = statements(deps.sqlite);
  const now = deps.clock.now();
  const result = writeTransaction(deps.sqlite, () => {
    const rows = deadLetterIds.map((id) => getDeadLetter(deps, tenantId, id));
    for (const row of rows) {
      // Only a delivery that is really dead is restarted; the dead letter goes only then, so a
      // row in an unexpected state keeps its record instead of vanishing.
      if (sql.restart.run(now, now, row.webhook_id).changes === 0) {
        throw new AppError("dead_letter_conflict", 409, `The delivery ${row.webhook_id} of ${row.dead_letter_id} is not dead; nothing was re-triggered.`);
      }
      sql.deleteOne.run(row.dead_letter_id);
    }
    return { retriggered: rows.map((row) => ({ dead_letter_id: row.dead_letter_id, webhook_id: row.webhook_id })) };
  });
  if (result.retriggered.length > 0) deps.deliveriesEnqueued.notify();
  return result;
}

/** Bulk form: every live dead letter matching the filter (at most `max`, newest first). */
export function retriggerMatchingDeadLetters(deps: Deps, filter: DeadLetterFilter, max = 10_000): RetriggerResult {
  const ids = listDeadLetters(deps, filter, { limit: max }).data.map((row) => row.dead_letter_id);
  return retriggerDeadLetters(deps, filter.tenantId, ids);
}
