import type { Deps } from "../deps.ts";
import { idTimeBound } from "../lib/ids.ts";

export interface TenantRetention {
  tenantId: string;
  chatDays: number | null;
  analyticsDays: number | null;
}

/** The per-tenant retention settings of the bot configs (`retention.chat_days`, `retention.analytics_days`). */
export function listTenantRetention(deps: Pick<Deps, "store">): Promise<TenantRetention[]> {
  return deps.store.privacy.listTenantRetention();
}

/**
 * Deletes up to `limit` of the tenant's chat sessions, with their transcripts, whose last
 * activity was at or before `cutoffMs`. Leads and appointments stay: they are the tenant's
 * business records, removed only by erasure (src/chat/erase-person.ts).
 */
export function purgeInactiveSessions(
  deps: Pick<Deps, "store">,
  tenantId: string,
  cutoffMs: number,
  limit: number,
): Promise<number> {
  // Ids carry the process clock's time (at worst ahead of it after the clock stepped back):
  // such a session is purged that much later.
  return deps.store.privacy.purgeInactiveSessions(tenantId, idTimeBound("ses", cutoffMs + 1), cutoffMs, limit);
}
