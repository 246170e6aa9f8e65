/** The inbox's live stream (GET /api/v1/inbox/stream), read with fetch so it carries the page's credentials. */
import { credentials, person } from "./api.ts";

export interface LiveEvent {
  id: string;
  event: string;
  data: { session_id: string; text?: string; reason?: string | null };
}

/**
 * Keeps one stream open while signed in: each event goes to `onEvent`; a dropped connection
 * comes back with Last-Event-ID (the server sends what was missed), 2 s later and then less
 * often. `onState` says whether the stream is up, so the inbox polls only while it is down.
 */
export function openInboxStream(onEvent: (event: LiveEvent) => void, onState: (up: boolean) => void): () => void {
  let lastId: string | null = null;
  let failures = 0;
  let stopped = false;
  let controller: AbortController | null = null;

  async function connect() {
    controller = new AbortController();
    const headers: Record<string, string> = credentials();
    if (lastId) headers["last-event-id"] = lastId;
    const response = await fetch("/api/v1/inbox/stream", {
      headers,
      signal: controller.signal,
      credentials: "omit",
      cache: "no-store",
    });
    if (response.status === 401 && person.signedIn() && (await person.resume())) return;
    if (!response.ok || !response.body) throw new Error(`stream: HTTP ${response.status}`);
    onState(true);
    failures = 0;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(frame)?.[1];
        const event = field("event");
        const data = field("data");
        if (!event || !data) continue;
        lastId = field("id") ?? lastId;
        onEvent({ id: lastId ?? "", event, data: JSON.parse(data) as LiveEvent["data"] });
      }
    }
  }

  async function loop() {
    while (!stopped) {
      try {
        await connect();
      } catch {
        failures++;
      }
      if (stopped) return;
      onState(false);
      await new Promise((resume) => setTimeout(resume, 2_000 * 2 ** Math.min(failures, 4)));
    }
  }
  void loop();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
