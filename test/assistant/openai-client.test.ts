import { afterEach, describe, expect, test } from "bun:test";
import {
  createChatCompletion,
  createEmbeddings,
  ProviderError,
  type ProviderEndpoint,
} from "../../src/assistant/openai-client.ts";
import { createCircuitBreaker } from "../../src/assistant/circuit-breaker.ts";
import { createFakeClock } from "../../src/lib/clock.ts";

let server: ReturnType<typeof Bun.serve> | null = null;
afterEach(() => {
  server?.stop(true);
  server = null;
});

/** A provider answering every request with `respond`; the endpoint points at it. */
function endpointAnswering(respond: (body: Record<string, unknown>) => Response): ProviderEndpoint {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => respond((await request.json()) as Record<string, unknown>),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1/`,
    apiKey: null,
    timeoutMs: 2000,
    untrusted: false,
    allowPrivate: false,
  };
}

const sseOf = (lines: string[]) =>
  new Response(lines.map((line) => `${line}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const data = (value: unknown) => `data: ${JSON.stringify(value)}`;

describe("createChatCompletion", () => {
  test("two tool calls streamed interleaved by index are assembled, with the text and the usage chunk", async () => {
    const endpoint = endpointAnswering(() =>
      sseOf([
        ": keep-alive",
        data({ choices: [{ delta: { content: "Let me " } }] }),
        data({ choices: [{ delta: { content: "check." } }] }),
        data({
          choices: [
            { delta: { tool_calls: [{ index: 0, id: "a", function: { name: "capture_lead", arguments: '{"na' } }] } },
          ],
        }),
        data({
          choices: [
            { delta: { tool_calls: [{ index: 1, id: "b", function: { name: "handoff", arguments: '{"reason"' } }] } },
          ],
        }),
        data({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: 'me":"A"}' } }] } }] }),
        data({ choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: ':"x"}' } }] } }] }),
        data({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 7 } }),
        "data: [DONE]",
      ]),
    );
    const deltas: string[] = [];
    const completion = await createChatCompletion(
      endpoint,
      { model: "m", messages: [{ role: "user", content: "hi" }] },
      (text) => deltas.push(text),
    );
    expect(deltas).toEqual(["Let me ", "check."]);
    expect(completion.text).toBe("Let me check.");
    expect(completion.toolCalls).toEqual([
      { id: "a", type: "function", function: { name: "capture_lead", arguments: '{"name":"A"}' } },
      { id: "b", type: "function", function: { name: "handoff", arguments: '{"reason":"x"}' } },
    ]);
    expect(completion.usage).toEqual({ promptTokens: 11, completionTokens: 7 });
  });

  test("a streaming request asks for usage; an error object inside the stream is an http_error", async () => {
    let sent: Record<string, unknown> = {};
    const endpoint = endpointAnswering((body) => {
      sent = body;
      return sseOf([data({ error: { message: "model overloaded", type: "server_error", code: null } })]);
    });
    const error = await createChatCompletion(endpoint, { model: "m", messages: [] }, () => {}).catch((e: unknown) => e);
    expect(sent).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("http_error");
    expect((error as ProviderError).message).toContain("model overloaded");
  });

  test("a non-streaming answer with tool arguments as an object (some servers) is read; no choices is malformed", async () => {
    const endpoint = endpointAnswering(() =>
      Response.json({
        choices: [
          { message: { content: null, tool_calls: [{ function: { name: "handoff", arguments: { reason: "x" } } }] } },
        ],
      }),
    );
    const completion = await createChatCompletion(endpoint, { model: "m", messages: [] });
    expect(completion.toolCalls).toEqual([
      { id: "call_0", type: "function", function: { name: "handoff", arguments: '{"reason":"x"}' } },
    ]);
    server?.stop(true);
    const empty = endpointAnswering(() => Response.json({ choices: [] }));
    expect(
      ((await createChatCompletion(empty, { model: "m", messages: [] }).catch((e: unknown) => e)) as ProviderError)
        .kind,
    ).toBe("malformed");
  });

  test("a 4xx carries the provider's error message; a refused connection is an http_error", async () => {
    const endpoint = endpointAnswering(() =>
      Response.json(
        { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
        { status: 401 },
      ),
    );
    const error = (await createChatCompletion(endpoint, { model: "m", messages: [] }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(error.kind).toBe("http_error");
    expect(error.status).toBe(401);
    expect(error.message).toContain("Incorrect API key provided");
    const port = server?.port;
    server?.stop(true);
    server = null;
    const refused = (await createChatCompletion(
      { ...endpoint, baseUrl: `http://127.0.0.1:${port}/v1` },
      { model: "m", messages: [] },
    ).catch((e: unknown) => e)) as ProviderError;
    expect(refused.kind).toBe("http_error");
  });

  test("a redirect is not followed", async () => {
    const endpoint = endpointAnswering(
      () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } }),
    );
    const error = (await createChatCompletion(endpoint, { model: "m", messages: [] }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(error.kind).toBe("http_error");
    expect(error.status).toBe(302);
  });
});

describe("createEmbeddings", () => {
  test("vectors come back in input order even when the server sorts them otherwise", async () => {
    const endpoint = endpointAnswering(() =>
      Response.json({
        data: [
          { index: 1, embedding: [0, 1] },
          { index: 0, embedding: [1, 0] },
        ],
      }),
    );
    expect(await createEmbeddings(endpoint, "e", ["first", "second"])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });
});

describe("circuit breaker", () => {
  test("opens after the threshold, lets one trial through after the wait, and closes on its success", () => {
    const clock = createFakeClock();
    const breaker = createCircuitBreaker(clock, 3, 1000);
    for (let i = 0; i < 3; i++) {
      expect(breaker.allow("p")).toBe(true);
      breaker.recordFailure("p");
    }
    expect(breaker.allow("p")).toBe(false);
    expect(breaker.allow("other")).toBe(true);
    clock.advance(1000);
    expect(breaker.allow("p")).toBe(true); // the trial
    expect(breaker.allow("p")).toBe(false); // others wait for it
    breaker.recordFailure("p");
    expect(breaker.allow("p")).toBe(false);
    clock.advance(1000);
    expect(breaker.allow("p")).toBe(true);
    breaker.recordSuccess("p");
    expect(breaker.allow("p")).toBe(true);
    expect(breaker.allow("p")).toBe(true);
  });
});
