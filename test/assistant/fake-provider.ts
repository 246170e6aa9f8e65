/**
 * A scripted OpenAI-compatible server on 127.0.0.1: each POST /chat/completions takes the next
 * step of the script. Steps answer as the real API does — JSON, or SSE `data: {...}` chunks and
 * `data: [DONE]` when the request says `stream: true`, tool calls streamed in fragments by
 * `index`, errors as `{"error":{"message","type","code"}}`. Every request is recorded so tests
 * can assert what Parley sent.
 */

export interface RecordedRequest {
  path: string;
  authorization: string | null;
  body: {
    model: string;
    stream?: boolean;
    messages: Array<{
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    }>;
    tools?: Array<{
      type: string;
      function: { name: string; parameters: { properties: Record<string, unknown>; required: string[] } };
    }>;
    max_tokens?: number;
    input?: string[];
  };
  /** Set by the test: whatever it wants to observe at the moment the request arrived (awaited). */
  observed?: unknown;
}

type Step = (request: RecordedRequest) => Response | Promise<Response>;

export interface FakeProvider {
  url: string;
  /** The answer calls (chat completions other than the query rewrite, and embeddings). */
  requests: RecordedRequest[];
  /** The query-rewrite calls, answered from `rewrites` (by default: the latest message unchanged). */
  rewriteRequests: RecordedRequest[];
  /** Appends answers to the next rewrite calls; a Step instead of text answers that call as scripted (e.g. an error). */
  rewrites(...answers: Array<string | Step>): void;
  /** Appends steps; a request with no step left gets a 500. */
  script(...steps: Step[]): void;
  /** Called on each request before its step runs. */
  onRequest(observe: (request: RecordedRequest) => unknown): void;
  stop(): void;
}

import { REWRITE_INSTRUCTIONS } from "../../src/assistant/rewrite-query.ts";

const USAGE = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };
const encoder = new TextEncoder();

function sse(chunks: unknown[], gate?: Promise<void>, gateAfter = 1): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [index, chunk] of chunks.entries()) {
        if (gate && index === gateAfter) await gate;
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      }
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-fake",
  object: "chat.completion.chunk",
  created: 1,
  model: "fake-model",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A plain answer: JSON, or streamed a few characters at a time. `gate` holds the stream after its first piece. */
export function answer(text: string, options: { gate?: Promise<void> } = {}): Step {
  return (request) => {
    if (!request.body.stream) {
      return Response.json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: USAGE,
      });
    }
    const pieces = text.match(/.{1,6}/gs) ?? [];
    const chunks: unknown[] = [
      chunk({ role: "assistant", content: "" }),
      ...pieces.map((piece) => chunk({ content: piece })),
      chunk({}, "stop"),
      { ...chunk({}), choices: [], usage: USAGE },
    ];
    return sse(chunks, options.gate, 2);
  };
}

/** One tool call; streamed, its arguments arrive in several fragments (and the name in the first). */
export function toolCall(name: string, args: unknown): Step {
  const argumentsText = typeof args === "string" ? args : JSON.stringify(args);
  return (request) => {
    if (!request.body.stream) {
      return Response.json({
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: argumentsText } }],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: USAGE,
      });
    }
    const fragments = argumentsText.match(/.{1,7}/gs) ?? [""];
    return sse([
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }],
      }),
      ...fragments.map((fragment) => chunk({ tool_calls: [{ index: 0, function: { arguments: fragment } }] })),
      chunk({}, "tool_calls"),
      { ...chunk({}), choices: [], usage: USAGE },
    ]);
  };
}

export const httpError =
  (status: number): Step =>
  () =>
    Response.json(
      {
        error: { message: "The server had an error while processing your request.", type: "server_error", code: null },
      },
      { status },
    );

/** Not JSON at all (non-streaming), or a broken SSE chunk (streaming). */
export const malformed = (): Step => (request) =>
  request.body.stream
    ? new Response('data: {"choices": [{"delta": {"content": "Hel\n\n', {
        headers: { "content-type": "text/event-stream" },
      })
    : new Response("<html>502 Bad Gateway</html>", { headers: { "content-type": "text/html" } });

/** A stream that starts well, then breaks off with a chunk that is not JSON. */
export const brokenMidStream = (): Step => () =>
  new Response(`data: ${JSON.stringify(chunk({ content: "Partial answ" }))}\n\ndata: {"choices": [{"delta\n\n`, {
    headers: { "content-type": "text/event-stream" },
  });

/**
 * An answer cut off after `keep` characters: streamed, the connection closes with neither a
 * `finish_reason` nor `[DONE]`; as JSON, the body stops mid-document.
 */
export const cutOff =
  (text: string, keep: number): Step =>
  (request) => {
    if (!request.body.stream) {
      const full = JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: USAGE,
      });
      return new Response(full.slice(0, full.indexOf(text) + keep), {
        headers: { "content-type": "application/json" },
      });
    }
    const pieces = text.slice(0, keep).match(/.{1,6}/gs) ?? [];
    const body = [chunk({ role: "assistant", content: "" }), ...pieces.map((piece) => chunk({ content: piece }))]
      .map((piece) => `data: ${JSON.stringify(piece)}\n\n`)
      .join("");
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };

/** Answers only after `ms`: longer than the configured timeout. */
export const slow =
  (ms: number, text = "too late"): Step =>
  async (request) => {
    await Bun.sleep(ms);
    return answer(text)(request);
  };

const isRewrite = (request: RecordedRequest): boolean => request.body.messages?.[0]?.content === REWRITE_INSTRUCTIONS;

export function startFakeProvider(): FakeProvider {
  const steps: Step[] = [];
  const requests: RecordedRequest[] = [];
  const rewriteRequests: RecordedRequest[] = [];
  const rewriteSteps: Array<string | Step> = [];
  let observe: ((request: RecordedRequest) => unknown) | null = null;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const recorded: RecordedRequest = {
        path,
        authorization: req.headers.get("authorization"),
        body: (await req.json()) as RecordedRequest["body"],
      };
      if (isRewrite(recorded)) {
        rewriteRequests.push(recorded);
        const next =
          rewriteSteps.shift() ?? (recorded.body.messages[1]?.content ?? "").split("Latest message: ").at(-1) ?? "";
        return typeof next === "string" ? answer(next)(recorded) : next(recorded);
      }
      if (observe) recorded.observed = await observe(recorded);
      requests.push(recorded);
      if (path.endsWith("/embeddings")) {
        // A toy embedding: letter counts, enough for a deterministic vector per text.
        const vectorOf = (text: string) =>
          Array.from(
            { length: 8 },
            (_, i) => [...text.toLowerCase()].filter((c) => c.charCodeAt(0) % 8 === i).length + 1,
          );
        return Response.json({
          object: "list",
          data: (recorded.body.input ?? []).map((text, index) => ({
            object: "embedding",
            index,
            embedding: vectorOf(text),
          })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
      }
      const step = steps.shift();
      return step
        ? step(recorded)
        : Response.json({ error: { message: "script exhausted", type: "server_error", code: null } }, { status: 500 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    rewriteRequests,
    rewrites: (...more) => rewriteSteps.push(...more),
    script: (...more) => steps.push(...more),
    onRequest: (fn) => {
      observe = fn;
    },
    stop: () => server.stop(true),
  };
}
