import type { MessageResult } from "../chat/handle-message.ts";
import { streamMessageEvents } from "../assistant/stream-reply.ts";
import type { Logger } from "../lib/log.ts";

const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};

/** The `Accept: text/event-stream` answer of POST /chatbot/message (src/assistant/stream-reply.ts). */
export async function streamMessageReply(
  run: (onDelta: (text: string) => void) => Promise<MessageResult>,
  log: Logger,
): Promise<Response> {
  return new Response(await streamMessageEvents(run, log), { headers: EVENT_STREAM_HEADERS });
}
