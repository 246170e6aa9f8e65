/** One server-sent event as a client parses it. */
export interface StreamEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/**
 * Reads a text/event-stream body frame by frame. `next(n)` resolves with the next n events, or
 * rejects after `withinMs` (a failing test must end; nothing here sleeps).
 */
export function eventReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const ready: StreamEvent[] = [];

  function parse() {
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        frame
          .split("\n")
          .filter((line) => line && !line.startsWith(":"))
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trimStart()]),
      );
      if (fields.event)
        ready.push({
          id: fields.id ?? "",
          event: fields.event,
          data: JSON.parse(fields.data ?? "{}") as Record<string, unknown>,
        });
      end = buffer.indexOf("\n\n");
    }
  }

  return {
    async next(count = 1, withinMs = 5_000): Promise<StreamEvent[]> {
      const deadline = setTimeout(() => void reader.cancel("timed out"), withinMs);
      try {
        while (ready.length < count) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended after ${ready.length} of ${count} events`);
          buffer += decoder.decode(value, { stream: true });
          parse();
        }
        return ready.splice(0, count);
      } finally {
        clearTimeout(deadline);
      }
    },
    close: () => reader.cancel(),
  };
}
