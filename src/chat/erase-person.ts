import type { Deps } from "../deps.ts";
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
async function erasePerson(deps: Deps, tenantId: string, seed: PersonSeed): Promise<ErasureResult> {
  const result = await deps.store.transaction(async (tx) => {
    const records = await findPersonRecords(tx, tenantId, seed);
    // Events first: their deliveries, attempts and dead letters cascade with them; messages
    // cascade with their session, so sessions go last.
    const order = [
      ["events", records.events],
      ["analyticsEvents", records.analyticsEvents],
      ["appointments", records.appointments],
      ["leads", records.leads],
      ["chatSessions", records.sessions],
    ] as const;
    for (const [table, rows] of order)
      await tx.privacy.deleteRows(
        table,
        rows.map((row) => row.id),
      );
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
  await deps.store.maintenance.checkpoint();
  return result;
}

/** DELETE /leads/:id and `parley lead erase`: the lead and everything about the same person. */
export function eraseLead(deps: Deps, tenantId: string, leadId: string): Promise<ErasureResult> {
  return erasePerson(deps, tenantId, { leadId });
}

/** DELETE /sessions/:id and `parley session erase`: the visitor of that session and everything about them. */
export function eraseSession(deps: Deps, tenantId: string, sessionId: string): Promise<ErasureResult> {
  return erasePerson(deps, tenantId, { sessionId });
}
