/**
 * Event committed → first POST under chat load, for bench/chat.ts: while a chat load phase runs,
 * commit one lead.created event on the server every PROBE_INTERVAL_MS (POST /bench/event, which
 * answers the delivery's webhook id and the wall-clock time of the commit) and read back from
 * the receiver child when each webhook id first arrived. Both times are wall-clock readings
 * (performance.timeOrigin + now) of two processes on the same machine.
 */
import type { ChatServer } from "./chat-lib.ts";
import { percentile, type ChildReceiver } from "./lib.ts";

/** One probe event every this many ms during the measured window (~50/s, a small share of the load). */
const PROBE_INTERVAL_MS = 20;
/** How long after the window the probe waits for the last deliveries to arrive. */
const ARRIVAL_GRACE_MS = 10_000;

export interface EventsUnderLoad {
  sent: number;
  /** Probe events whose webhook reached the receiver. */
  arrived: number;
  p50: number;
  p99: number;
}

interface Committed {
  webhook_id: string | null;
  committed_at: number;
}

/**
 * Runs `load` (a chat phase of warmupMs + durationMs) and probes during its measured window;
 * resolves with the load's result and the commit → arrival latencies of the probe events.
 */
export async function measureEventsUnderLoad<T>(
  server: ChatServer,
  receiver: ChildReceiver,
  window: { warmupMs: number; durationMs: number },
  load: () => Promise<T>,
): Promise<{ load: T; events: EventsUnderLoad }> {
  const loadDone = load();
  await Bun.sleep(window.warmupMs);
  const windowEnd = performance.now() + window.durationMs;
  const probes: Promise<Committed | null>[] = [];
  while (performance.now() < windowEnd) {
    probes.push(
      fetch(`${server.base}/bench/event`, { method: "POST" })
        .then((response) => response.json() as Promise<Committed>)
        .catch(() => null),
    );
    await Bun.sleep(PROBE_INTERVAL_MS);
  }
  const result = await loadDone;
  const committed = (await Promise.all(probes)).filter(
    (probe): probe is Committed & { webhook_id: string } => probe?.webhook_id != null,
  );

  const deadline = performance.now() + ARRIVAL_GRACE_MS;
  let arrivals = await receiver.arrivals();
  while (committed.some((probe) => !(probe.webhook_id in arrivals)) && performance.now() < deadline) {
    await Bun.sleep(100);
    arrivals = await receiver.arrivals();
  }
  const latencies = committed
    .flatMap((probe) => {
      const arrivedAt = arrivals[probe.webhook_id];
      return arrivedAt === undefined ? [] : [arrivedAt - probe.committed_at];
    })
    .sort((a, b) => a - b);
  return {
    load: result,
    events: {
      sent: probes.length,
      arrived: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    },
  };
}
