import { AppError } from "../lib/app-error.ts";
import type { Logger } from "../lib/log.ts";
import type { MessageResult } from "../chat/handle-message.ts";

/**
 * The `Accept: text/event-stream` form of POST /chatbot/message: `event: delta` with
 * `{"text": "<next piece>"}` as the model writes, then one `event: done` whose data is exactly
 * the JSON the plain call returns. The response starts only at the first delta (or at the
 * end, for the rule engine, which sends its whole text as one delta): until then an error is
 * thrown to the caller and becomes the ordinary JSON 4xx. An error after the stream started
 * (rare: a race in the write phase) is sent as `event: error` with `{error, message}`.
 */

export const wantsEventStream = (accept: string | null): boolean =>
  accept?.toLowerCase().includes("text/event-stream") ?? false;

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The event stream's body. It resolves when the stream starts (the first delta, or the end) and
 * rejects if the turn fails before that; src/http wraps it in the HTTP response.
 */
export function streamMessageEvents(
  run: (onDelta: (text: string) => void) => Promise<MessageResult>,
  log: Logger,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      closed = true; // the visitor went away; the turn still completes and is stored
    },
  });
  const send = (event: string, data: unknown) => {
    if (!closed) controller.enqueue(encoder.encode(frame(event, data)));
  };
  const finish = () => {
    if (!closed) controller.close();
    closed = true;
  };
  return new Promise<ReadableStream<Uint8Array>>((resolve, reject) => {
    let started = false;
    let streamedText = false;
    const start = () => {
      if (!started) resolve(body);
      started = true;
    };
    run((text) => {
      start();
      streamedText = true;
      send("delta", { text });
    }).then(
      (result) => {
        start();
        if (!streamedText && result.reply) send("delta", { text: result.reply.text });
        send("done", result);
        finish();
      },
      (error: unknown) => {
        if (!started) return reject(error);
        if (error instanceof AppError && error.status < 500)
          send("error", { error: error.code, message: error.message });
        else {
          log.error({ msg: "stream_failed", error: String(error) });
          send("error", { error: "internal_error", message: "Something went wrong; please send the message again." });
        }
        finish();
      },
    );
  });
}
