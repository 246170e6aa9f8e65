import { afterEach, describe, expect, test } from "bun:test";
import { createUser } from "../../src/auth/create-user.ts";
import { login } from "../helpers.ts";
import { openWidgetSession } from "../http/chat-helpers.ts";
import { answer, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider | null = null;
let fixture: AssistantFixture;
let server: ReturnType<typeof Bun.serve> | null = null;
afterEach(() => {
  server?.stop(true);
  server = null;
  fixture?.context.close();
  provider?.stop();
  provider = null;
});

interface SseEvent {
  event: string;
  data: string;
}

function parseEvents(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      return {
        event: lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "",
        data: lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "",
      };
    });
}

/** The app on a real socket, so streaming goes through Bun's HTTP server as in production. */
function serveApp(): string {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => fixture.context.app.handle(request) });
  return `http://127.0.0.1:${server.port}`;
}

const post = (base: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${base}/api/v1/chatbot/message`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("POST /api/v1/chatbot/message with Accept: text/event-stream over real HTTP", () => {
  test("deltas arrive before the model has finished; done holds exactly the JSON response", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const text = "Whitening costs 249 dollars per session.";
    provider.script(answer(text, { gate }));
    const base = serveApp();

    const response = await post(
      base,
      { tenant_id: fixture.tenantId, message: "How much is whitening?" },
      { authorization: `Bearer ${fixture.token}`, accept: "text/event-stream", origin: "https://shop.example" },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(response.headers.get("ratelimit-limit")).toBe("60");

    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("event: delta")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended before a delta");
      received += decoder.decode(value, { stream: true });
    }
    // The model is still held at the gate: what arrived so far is a delta and no done.
    expect(received).not.toContain("event: done");
    release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }

    const events = parseEvents(received);
    const deltas = events.filter((e) => e.event === "delta").map((e) => (JSON.parse(e.data) as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(text);
    expect(events.at(-1)?.event).toBe("done");
    expect(events.filter((e) => e.event === "done")).toHaveLength(1);
    const done = JSON.parse(events.at(-1)?.data ?? "null") as ReplyBody;
    expect(Object.keys(done)).toEqual(["session_id", "message_id", "reply", "status"]);
    expect(done.reply?.text).toBe(text);
    expect(done.session_id).toBe(fixture.sessionId);

    const transcript = (await (
      await fetch(`${base}/api/v1/chatbot/sessions/${fixture.sessionId}/messages`, {
        headers: { authorization: `Bearer ${fixture.token}` },
      })
    ).json()) as { data: Array<{ message_id: string; text: string }> };
    expect(transcript.data.map((m) => [m.message_id, m.text])).toEqual([
      [done.message_id, "How much is whitening?"],
      [done.reply!.message_id, text],
    ]);
  });

  test("with the rule engine, a streaming request gets one delta with the whole text and a done equal to the plain JSON", async () => {
    fixture = await assistantFixture(startFakeProvider(), { aiBaseUrl: null, aiModel: null });
    const base = serveApp();
    const first = await openWidgetSession(fixture.context, fixture.tenantId);
    const second = await openWidgetSession(fixture.context, fixture.tenantId);
    const streamed = await post(
      base,
      { tenant_id: fixture.tenantId, message: "How much is teeth whitening?" },
      { authorization: `Bearer ${first.access_token}`, accept: "text/event-stream" },
    );
    const plain = await post(
      base,
      { tenant_id: fixture.tenantId, message: "How much is teeth whitening?" },
      { authorization: `Bearer ${second.access_token}` },
    );
    expect(plain.headers.get("content-type")).toStartWith("application/json");
    const events = parseEvents(await streamed.text());
    expect(events.map((e) => e.event)).toEqual(["delta", "done"]);
    const plainBody = (await plain.json()) as ReplyBody;
    const done = JSON.parse(events[1]?.data ?? "null") as ReplyBody;
    expect(JSON.parse(events[0]?.data ?? "null")).toEqual({ text: plainBody.reply?.text });
    // Two sessions, so the ids differ; everything else is the same document.
    const withoutIds = (body: ReplyBody) => ({
      ...body,
      session_id: "",
      message_id: "",
      reply: body.reply && { ...body.reply, message_id: "" },
    });
    expect(withoutIds(done)).toEqual(withoutIds(plainBody));
  });

  test("an error before the stream starts is the normal JSON 4xx", async () => {
    fixture = await assistantFixture(startFakeProvider(), { aiBaseUrl: null, aiModel: null });
    const base = serveApp();
    await createUser(fixture.context.deps, {
      email: "owner@other.test",
      tenantId: fixture.otherTenantId,
      role: "owner",
      password: "correct horse battery",
    });
    const { access_token } = await login(fixture.context, "owner@other.test");
    // Another tenant's session: 404, as JSON, before any stream starts.
    const response = await post(
      base,
      { tenant_id: fixture.otherTenantId, message: "hi", session_id: fixture.sessionId },
      { authorization: `Bearer ${access_token}`, accept: "text/event-stream" },
    );
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(await response.json()).toMatchObject({ error: "session_not_found" });
  });
});
