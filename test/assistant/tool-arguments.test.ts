import { afterEach, describe, expect, test } from "bun:test";
import { deliverAll } from "../http/chat-helpers.ts";
import { answer, startFakeProvider, toolCall, type FakeProvider, type RecordedRequest } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

function toolResult(request: RecordedRequest | undefined): { ok: boolean; error?: string; problems?: string[] } {
  return JSON.parse(request?.body.messages.find((m) => m.role === "tool")?.content ?? "null");
}

describe("arguments the model may not pass", () => {
  test("a handoff call naming another session or tenant is refused and hands nothing over", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(
      toolCall("handoff", { reason: "x", session_id: "ses_someone_else", tenant_id: "ten_other" }),
      answer("How else can I help?"),
    );
    const body = (await (await fixture.send("hello")).json()) as ReplyBody;
    expect(body.status).not.toBe("handoff");
    expect(toolResult(provider.requests[1])).toMatchObject({
      ok: false,
      error: "invalid_arguments",
      problems: ["unknown fields: session_id, tenant_id"],
    });
    expect((await deliverAll(fixture.context)).filter((d) => d.event === "handoff.requested")).toEqual([]);
  });

  test("tool arguments nested past the JSON depth limit are a corrective result, not a crash", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const deep = `{"reason":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    provider.script(toolCall("handoff", deep), answer("Sorry, could you say that again?"));
    const body = (await (await fixture.send("hello")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("Sorry, could you say that again?");
    expect(toolResult(provider.requests[1])).toMatchObject({ ok: false, error: "invalid_arguments" });
  });
});
