import { afterEach, describe, expect, test } from "bun:test";
import { getBotConfig } from "../../src/chat/bot-settings.ts";
import { createRuleEngine, initialConversationState } from "../../src/chat/engine/engine.ts";
import { FAILURE_THRESHOLD, OPEN_MS } from "../../src/assistant/circuit-breaker.ts";
import {
  answer,
  brokenMidStream,
  cutOff,
  httpError,
  malformed,
  slow,
  startFakeProvider,
  toolCall,
  type FakeProvider,
} from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

const QUESTION = "How much is teeth whitening?";

/** What the rule engine alone answers to the first message of a session. */
async function ruleEngineReply(): Promise<string> {
  const config = await getBotConfig(fixture.context.deps, fixture.tenantId);
  const output = createRuleEngine().reply({
    config,
    state: initialConversationState(),
    message: QUESTION,
    nowMs: fixture.context.clock.now(),
    takenSlotStarts: [],
  });
  return output.reply.text;
}

async function metric(name: string): Promise<number> {
  const text = await (await fixture.context.request("GET", "/metrics")).text();
  const line = text.split("\n").find((row) => row.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? NaN);
}

const FAILURES = [
  { name: "a 500 from the provider", step: httpError(500), outcome: "http_error" },
  { name: "a 429 from the provider", step: httpError(429), outcome: "http_error" },
  { name: "an answer that is not JSON", step: malformed(), outcome: "malformed" },
  { name: "a reply slower than the timeout", step: slow(3000), outcome: "timeout" },
  {
    name: "a call of a tool that was never offered",
    step: toolCall("delete_all_leads", { tenant_id: "ten_x" }),
    outcome: "unknown_tool",
  },
] as const;

describe("never worse than no model: provider failures fall back to the rule engine", () => {
  for (const failure of FAILURES) {
    for (const streaming of [false, true]) {
      test(`${failure.name}${streaming ? " (streamed)" : ""} still gives the visitor the rule engine's reply`, async () => {
        provider = startFakeProvider();
        fixture = await assistantFixture(provider);
        provider.script(failure.step);
        const response = await fixture.send(QUESTION, streaming ? { accept: "text/event-stream" } : {});
        expect(response.status).toBe(200);
        const body = streaming
          ? (JSON.parse((await response.text()).split("event: done\ndata: ")[1] ?? "null") as ReplyBody)
          : ((await response.json()) as ReplyBody);
        expect(body.reply?.text).toBe(await ruleEngineReply());
        expect(body.reply?.sources).toBeUndefined();
        expect(provider.requests).toHaveLength(1);
        expect(await metric(`parley_ai_calls_total{outcome="${failure.outcome}"}`)).toBe(1);
        expect(await metric(`parley_ai_calls_total{outcome="ok"}`)).toBe(0);
      });
    }
  }

  test("a stream that breaks off after some text: done carries the rule engine's reply, which replaces the partial text", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(brokenMidStream());
    const text = await (await fixture.send(QUESTION, { accept: "text/event-stream" })).text();
    expect(text).toStartWith('event: delta\ndata: {"text":"Partial answ"}\n\n');
    const done = JSON.parse(text.split("event: done\ndata: ")[1] ?? "null") as ReplyBody;
    expect(done.reply?.text).toBe(await ruleEngineReply());
    expect(await metric('parley_ai_calls_total{outcome="malformed"}')).toBe(1);
  });

  for (const streaming of [true, false]) {
    test(`an answer cut before its end marker${streaming ? " (streamed: no finish_reason, no [DONE])" : " (JSON body cut short)"} is a failure: the visitor gets the rule engine's reply, never the cut text`, async () => {
      provider = startFakeProvider();
      fixture = await assistantFixture(provider);
      const full = "Thanks for your question - here is what whitening costs: 249 dollars.";
      provider.script(cutOff(full, 40));
      const response = await fixture.send(QUESTION, streaming ? { accept: "text/event-stream" } : {});
      expect(response.status).toBe(200);
      const raw = await response.text();
      const body = (
        streaming ? JSON.parse(raw.split("event: done\ndata: ")[1] ?? "null") : JSON.parse(raw)
      ) as ReplyBody;
      if (streaming) expect(raw).toContain(`data: {"text":"Thanks"}`); // the cut text was streamed, then replaced by done
      expect(body.reply?.text).toBe(await ruleEngineReply());
      expect(body.reply?.text).not.toContain("here is what");
      expect(await metric('parley_ai_calls_total{outcome="malformed"}')).toBe(1);
      const transcript = (await (
        await fixture.context.request("GET", `/api/v1/chatbot/sessions/${fixture.sessionId}/messages`, {
          headers: { authorization: `Bearer ${fixture.token}` },
        })
      ).json()) as { data: Array<{ text: string }> };
      expect(transcript.data.map((message) => message.text)).toEqual([QUESTION, await ruleEngineReply()]);
    });
  }

  test("after repeated failures the circuit breaker skips the provider, and tries again once the wait is over", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    for (let i = 0; i < FAILURE_THRESHOLD; i += 1) provider.script(httpError(503));
    for (let i = 0; i < FAILURE_THRESHOLD; i += 1) expect((await fixture.send(QUESTION)).status).toBe(200);
    expect(provider.requests).toHaveLength(FAILURE_THRESHOLD);

    const skipped = (await (await fixture.send(QUESTION)).json()) as ReplyBody;
    expect(skipped.reply?.text.length).toBeGreaterThan(0);
    expect(provider.requests).toHaveLength(FAILURE_THRESHOLD);
    expect(await metric('parley_ai_calls_total{outcome="circuit_open"}')).toBe(1);

    fixture.context.clock.advance(OPEN_MS - 1);
    await fixture.send(QUESTION);
    expect(provider.requests).toHaveLength(FAILURE_THRESHOLD);

    fixture.context.clock.advance(1);
    provider.script(answer("Back again: 249 dollars."));
    const recovered = (await (await fixture.send(QUESTION)).json()) as ReplyBody;
    expect(recovered.reply?.text).toBe("Back again: 249 dollars.");
    expect(provider.requests).toHaveLength(FAILURE_THRESHOLD + 1);
    expect(await metric('parley_ai_calls_total{outcome="ok"}')).toBe(1);
  });

  test("tokens the provider reports are counted in /metrics and in GET /usage for the tenant", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(answer("One."), httpError(500));
    await fixture.send(QUESTION);
    await fixture.send(QUESTION);
    // Each turn makes one query-rewrite call (120 + 30 tokens), then the answer call: one answered, one failed.
    expect(provider.rewriteRequests).toHaveLength(2);
    expect(await metric('parley_ai_tokens_total{kind="prompt"}')).toBe(360);
    expect(await metric('parley_ai_tokens_total{kind="completion"}')).toBe(90);
    const { createApiKey } = await import("../../src/auth/api-keys.ts");
    const key = (await createApiKey(fixture.context.deps, { tenantId: fixture.tenantId, name: "usage" })).key;
    const usage = (await (
      await fixture.context.request("GET", "/api/v1/usage", { headers: { "x-api-key": key } })
    ).json()) as { used: number; ai: Record<string, unknown> };
    expect(usage.used).toBe(2);
    expect(usage.ai).toEqual({ calls: 3, prompt_tokens: 360, completion_tokens: 90, token_cap: 20_000_000 });
  });

  test("over the plan's token cap the rule engine answers and the provider is not called", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    await fixture.context.deps.store.usage.addAiUsage(fixture.tenantId, "2026-01", {
      calls: 9,
      promptTokens: 19999990,
      completionTokens: 10,
    });
    const body = (await (await fixture.send(QUESTION)).json()) as ReplyBody;
    expect(body.reply?.text).toBe(await ruleEngineReply());
    expect(provider.requests).toEqual([]);
  });
});
