import { afterEach, describe, expect, test } from "bun:test";
import { deliverAll } from "../http/chat-helpers.ts";
import { answer, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

describe("a person asked for while a model answers", () => {
  const requests = [
    ["the manager", "I want to talk to the manager"],
    ["a complaint", "This is unacceptable, I want a refund"],
    ["the manager, in Portuguese", "quero falar com o gerente"],
    ["a person, in Spanish", "quiero hablar con una persona, por favor"],
  ] as const;

  for (const [what, message] of requests) {
    test(`${what} is handed over by the rule engine, without asking the model`, async () => {
      provider = startFakeProvider();
      fixture = await assistantFixture(provider);
      provider.script(answer("Happy to help with anything else!"));
      const body = (await (await fixture.send(message)).json()) as ReplyBody;
      expect(body.status).toBe("handoff");
      expect(provider.requests).toHaveLength(0);
      const handoffs = (await deliverAll(fixture.context)).filter((delivery) => delivery.event === "handoff.requested");
      expect(handoffs).toHaveLength(1);
    });
  }

  test("an ordinary question still goes to the model (the control case)", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(answer("Whitening costs 249 dollars."));
    const body = (await (await fixture.send("how much is whitening?")).json()) as ReplyBody;
    expect(body.status).toBe("bot");
    expect(provider.requests.length).toBeGreaterThan(0);
  });
});
