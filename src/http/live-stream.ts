import type { LiveEventRow } from "../db/store.ts";
import type { LiveAudience, LiveHub } from "../frontdesk/live-hub.ts";

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
};
/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 25_000;
/** What EventSource-style clients wait before reconnecting. */
const RETRY_MS = 2_000;

const encoder = new TextEncoder();

/** A client that went away between two events: its stream's cancel() unsubscribes it; nothing else may fail for it. */
function enqueueSafely(controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array): void {
  try {
    controller.enqueue(chunk);
  } catch {
    // Closed: the hub's other streams still get the event.
  }
}
const frame = (event: LiveEventRow) =>
  encoder.encode(`id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`);

/** `Last-Event-ID` (the header, or `?last_event_id=` for clients that cannot set headers) as an id; null when absent or not one. */
export function lastEventId(request: Request, fromQuery: string | undefined): number | null {
  const raw = request.headers.get("last-event-id") ?? fromQuery;
  if (raw === undefined || raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * A server-sent events response over the hub: the backlog after `afterId`, then each new event
 * as `id:`/`event:`/`data:`. The stream ends when the client goes away. One heartbeat timer per
 * hub serves every open stream, so an idle stream costs no timer of its own.
 */
export function createLiveStreams(hub: LiveHub) {
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const ping = encoder.encode(": ping\n\n");

  function track(controller: ReadableStreamDefaultController<Uint8Array>, add: boolean) {
    if (add) open.add(controller);
    else open.delete(controller);
    if (open.size > 0 && !heartbeat) {
      heartbeat = setInterval(() => {
        for (const each of open) enqueueSafely(each, ping);
      }, HEARTBEAT_MS);
      heartbeat.unref?.();
    } else if (open.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  return {
    respond(audience: LiveAudience, afterId: number | null, headers: Record<string, string | number> = {}): Response {
      let stop: (() => void) | null = null;
      let controllerOf: ReadableStreamDefaultController<Uint8Array> | null = null;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controllerOf = controller;
          controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
          track(controller, true);
          stop = await hub.subscribe(audience, afterId, (event) => enqueueSafely(controller, frame(event)));
        },
        cancel() {
          if (controllerOf) track(controllerOf, false);
          stop?.();
        },
      });
      return new Response(body, {
        headers: {
          ...STREAM_HEADERS,
          ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
        },
      });
    },
    /** Streams open through these routes. */
    size: () => open.size,
  };
}
