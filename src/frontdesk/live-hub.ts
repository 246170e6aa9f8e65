import type { Deps } from "../deps.ts";
import type { LiveEventRow } from "../db/store.ts";
import { LIVE_EVENT_RETENTION_MS, OPERATOR_KINDS, VISITOR_KINDS } from "./live-events.ts";

/** Who listens: a tenant's operators, or one session's visitor. */
export type LiveAudience = { tenantId: string; sessionId?: undefined } | { tenantId: string; sessionId: string };

export interface LiveHubOptions {
  /**
   * How often the hub looks for rows nobody told it about while a stream is open: another
   * process's writes on SQLite (the CLI), a NOTIFY lost while PostgreSQL's listen connection
   * reconnected. Nothing runs while no stream is open.
   */
  pollMs: number;
  /**
   * A token that changes whenever another process may have written (SQLite's `PRAGMA
   * data_version`: commits by other connections). With it, a look whose token has not moved
   * reads nothing and the next look waits twice as long, up to `maxPollMs`; a moved token reads
   * and starts again at `pollMs`. This process's own writes wake the hub anyway.
   */
  changeToken?: () => Promise<string>;
  maxPollMs?: number;
  /** Rows read per look; a longer backlog is read in further looks at once. */
  batch?: number;
}

interface Subscriber {
  audience: LiveAudience;
  lastId: number;
  /** Events that arrived while the backlog was being read, sent after it in order. */
  held: LiveEventRow[] | null;
  send(event: LiveEventRow): void;
}

const PURGE_EVERY_MS = 10 * 60_000;

/**
 * One per server process: reads new live events once for every open stream and hands each to
 * the streams whose audience it concerns. Woken by `liveEventsWritten` (this process's commits,
 * and other instances' through NOTIFY), and by a re-armed timer while any stream is open.
 */
export function createLiveHub(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten" | "log">,
  options: LiveHubOptions,
) {
  const batch = options.batch ?? 500;
  const subscribers = new Set<Subscriber>();
  let cursor: number | null = null;
  let reading: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribeSignal: (() => void) | null = null;
  let lastPurge = 0;
  let delay = options.pollMs;
  let lastToken: string | null = null;

  const concerns = (audience: LiveAudience, event: LiveEventRow) =>
    event.tenantId === audience.tenantId &&
    (audience.sessionId === undefined
      ? OPERATOR_KINDS.has(event.kind)
      : event.sessionId === audience.sessionId && VISITOR_KINDS.has(event.kind));

  function deliver(subscriber: Subscriber, event: LiveEventRow) {
    if (event.id <= subscriber.lastId || !concerns(subscriber.audience, event)) return;
    if (subscriber.held) {
      subscriber.held.push(event);
      return;
    }
    subscriber.lastId = event.id;
    subscriber.send(event);
  }

  async function readNew() {
    cursor ??= await deps.store.liveEvents.findLatestLiveEventId();
    for (;;) {
      const rows = await deps.store.liveEvents.listLiveEventsAfter(cursor, batch);
      for (const row of rows) {
        cursor = row.id;
        for (const subscriber of subscribers) deliver(subscriber, row);
      }
      if (rows.length < batch) break;
    }
    const now = deps.clock.now();
    if (now - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = now;
      await deps.store.liveEvents.purgeLiveEventsBefore(now - LIVE_EVENT_RETENTION_MS);
    }
  }

  /** One look at a time; a wake-up during a look runs one more after it. */
  function wake(): Promise<void> {
    if (reading) {
      again = true;
      return reading;
    }
    reading = readNew()
      .catch((error: unknown) =>
        deps.log.error({
          msg: "live events read failed",
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          void wake();
        }
      });
    return reading;
  }

  /** One timed look: reads only when the change token moved (or there is none); answers the wait before the next. */
  async function look(): Promise<number> {
    const token = options.changeToken ? await options.changeToken().catch(() => null) : null;
    if (token !== null && token === lastToken) {
      delay = Math.min(delay * 2, options.maxPollMs ?? options.pollMs);
      return delay;
    }
    lastToken = token;
    delay = options.pollMs;
    await wake();
    return delay;
  }

  function arm(wait = options.pollMs) {
    clearTimeout(timer);
    if (subscribers.size === 0) return;
    timer = setTimeout(() => void look().then(arm, () => arm()), wait);
  }

  return {
    /**
     * Opens a stream. With `afterId` (Last-Event-ID) the events the audience missed since then
     * are sent first, in order, before anything new; without, only what happens from now on.
     */
    async subscribe(
      audience: LiveAudience,
      afterId: number | null,
      send: (event: LiveEventRow) => void,
    ): Promise<() => void> {
      const subscriber: Subscriber = { audience, lastId: 0, held: [], send };
      if (subscribers.size === 0) unsubscribeSignal = deps.liveEventsWritten?.subscribe(() => void wake()) ?? null;
      subscribers.add(subscriber);
      arm();
      try {
        // The hub's cursor is where "from now on" starts: everything after it reaches this stream.
        // The change token is taken first: a commit after it moves the token, so the next look reads.
        if (cursor === null && options.changeToken) lastToken = await options.changeToken().catch(() => null);
        cursor ??= await deps.store.liveEvents.findLatestLiveEventId();
        if (afterId === null) {
          subscriber.lastId = cursor;
        } else {
          subscriber.lastId = afterId;
          for (;;) {
            const rows =
              audience.sessionId === undefined
                ? await deps.store.liveEvents.listTenantLiveEventsAfter(audience.tenantId, subscriber.lastId, batch)
                : await deps.store.liveEvents.listSessionLiveEventsAfter(audience.sessionId, subscriber.lastId, batch);
            for (const row of rows) {
              if (!concerns(audience, row)) continue;
              subscriber.send(row);
            }
            subscriber.lastId = rows.at(-1)?.id ?? subscriber.lastId;
            if (rows.length < batch) break;
          }
        }
      } finally {
        const held = subscriber.held ?? [];
        subscriber.held = null;
        for (const event of held) deliver(subscriber, event);
      }
      return () => {
        subscribers.delete(subscriber);
        if (subscribers.size > 0) return;
        clearTimeout(timer);
        unsubscribeSignal?.();
        unsubscribeSignal = null;
        // Nobody listens: the next stream starts from the newest event, not from here.
        cursor = null;
      };
    },
    /** Open streams in this process (for /metrics and the bench). */
    size: () => subscribers.size,
    /** Looks for new events now (tests, and the hub's own timer). */
    wake,
    /** One look of the hub's timer, as it runs while a stream is open (tests drive it). */
    look,
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
