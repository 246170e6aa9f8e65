import type { SharedCounters } from "../store.ts";
import type { PgExec } from "./exec.ts";

/**
 * A sliding window is a row of admitted hit times, updated by one upsert under the row's lock
 * (ON CONFLICT re-reads the latest row), so the limit is exact for the cluster.
 */
export function pgCounters(db: PgExec): SharedCounters {
  const live = "ARRAY(SELECT h FROM unnest(w.hits) AS h WHERE h > $2::bigint - $3::bigint ORDER BY h)";
  return {
    async take(key, limit, windowMs, now) {
      const row = await db.get<{ allowed: boolean; hits: number[] }>(
        `INSERT INTO parley_rate_windows AS w (key, hits, allowed, expires_at) VALUES ($1, ARRAY[$2::bigint], true, $2::bigint + $3::bigint)
         ON CONFLICT (key) DO UPDATE SET
           allowed = cardinality(${live}) < $4::int,
           hits = CASE WHEN cardinality(${live}) < $4::int THEN ${live} || $2::bigint ELSE ${live} END,
           expires_at = $2::bigint + $3::bigint
         RETURNING allowed, hits::float8[] AS hits`,
        [key, now, windowMs, limit],
      );
      return { allowed: row?.allowed ?? false, hits: row?.hits ?? [] };
    },
    async liveHits(key, windowMs, now) {
      const row = await db.get<{ hits: number[] }>(
        "SELECT hits::float8[] AS hits FROM parley_rate_windows WHERE key = $1",
        [key],
      );
      return (row?.hits ?? []).filter((hit) => hit > now - windowMs);
    },
    async addToWindow(key, windowMs, now) {
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const row = await db.get<{ count: number }>(
        `INSERT INTO parley_counters (key, window_start, count, expires_at) VALUES ($1, $2::bigint, 1, $3::bigint)
         ON CONFLICT (key, window_start) DO UPDATE SET count = parley_counters.count + 1
         RETURNING count`,
        [key, windowStart, windowStart + windowMs],
      );
      return row?.count ?? 0;
    },
    async windowCount(key, windowMs, now) {
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const row = await db.get<{ count: number }>(
        "SELECT count FROM parley_counters WHERE key = $1 AND window_start = $2::bigint",
        [key, windowStart],
      );
      return row?.count ?? 0;
    },
    async purgeExpired(now) {
      const windows = await db.run("DELETE FROM parley_rate_windows WHERE expires_at < $1::bigint", [now]);
      const counters = await db.run("DELETE FROM parley_counters WHERE expires_at < $1::bigint", [now]);
      return windows + counters;
    },
  };
}
