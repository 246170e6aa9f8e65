import type { Database } from "bun:sqlite";
import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { findPersonRecords, type PersonSeed } from "./person-records.ts";

export interface ErasureResult {
  erased: true;
  tenant_id: string;
  leads: number;
  appointments: number;
  sessions: number;
  messages: number;
  events: number;
  deliveries: number;
  analytics_events: number;
}

function deleteByIds(sqlite: Database, table: string, ids: ReadonlyArray<string | number>): void {
  // Chunks keep each statement well under SQLite's bound-parameter limit.
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    sqlite.prepare(`DELETE FROM ${table} WHERE id IN (${chunk.map(() => "?").join(", ")})`).run(...chunk);
  }
}

/**
 * Erases a person on their request (see findPersonRecords for who that is): their leads,
 * appointments, chat sessions with transcripts and conversation state, widget analytics of
 * those sessions, and every event whose payload names them — deleted, not scrubbed, together
 * with the events' webhook deliveries, attempt logs and dead letters, so nothing is left to be
 * retried or re-triggered with their data. One transaction: all of it or nothing.
 *
 * The connection runs with secure_delete, so freed pages are zeroed rather than left in the
 * file; the WAL's old copies are overwritten as it is checkpointed and reused.
 */
function erasePerson(deps: Deps, tenantId: string, seed: PersonSeed): ErasureResult {
  const result = writeTransaction(deps.sqlite, () => {
    const records = findPersonRecords(deps, tenantId, seed);
    // Events first: their deliveries, attempts and dead letters cascade with them.
    deleteByIds(deps.sqlite, "events", records.events.map((row) => row.id));
    deleteByIds(deps.sqlite, "analytics_events", records.analyticsEvents.map((row) => row.id));
    deleteByIds(deps.sqlite, "appointments", records.appointments.map((row) => row.id));
    deleteByIds(deps.sqlite, "leads", records.leads.map((row) => row.id));
    // Messages cascade with their session.
    deleteByIds(deps.sqlite, "chat_sessions", records.sessions.map((row) => row.id));
    return {
      erased: true as const,
      tenant_id: tenantId,
      leads: records.leads.length,
      appointments: records.appointments.length,
      sessions: records.sessions.length,
      messages: records.messages.length,
      events: records.events.length,
      deliveries: records.deliveries.length,
      analytics_events: records.analyticsEvents.length,
    };
  });
  // Copies the zeroed pages into the database file now; PASSIVE never waits for anyone.
  deps.sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
  return result;
}

/** DELETE /leads/:id and `parley lead erase`: the lead and everything about the same person. */
export function eraseLead(deps: Deps, tenantId: string, leadId: string): ErasureResult {
  return erasePerson(deps, tenantId, { leadId });
}

/** DELETE /sessions/:id and `parley session erase`: the visitor of that session and everything about them. */
export function eraseSession(deps: Deps, tenantId: string, sessionId: string): ErasureResult {
  return erasePerson(deps, tenantId, { sessionId });
}
