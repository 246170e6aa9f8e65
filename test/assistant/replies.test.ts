import { afterEach, describe, expect, test } from "bun:test";
import { addDocument } from "../../src/knowledge/documents.ts";
import { embedderForTenant } from "../../src/assistant/settings.ts";
import { answer, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import {
  assistantFixture,
  OTHER_TENANT_SECRET,
  WHITENING_ANSWER,
  type AssistantFixture,
  type ReplyBody,
} from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

describe("assistant replies from a fake OpenAI-compatible provider", () => {
  test("a plain answer becomes the reply, its citation markers out of the text and the cited passage in sources", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(answer("Whitening costs 249 dollars per session [1]."));
    const response = await fixture.send("How much is teeth whitening?");
    expect(response.status).toBe(200);
    const body = (await response.json()) as ReplyBody;
    expect(body.reply?.text).toBe("Whitening costs 249 dollars per session.");
    expect(body.status).toBe("bot");
    expect(body.reply?.sources).toEqual([
      { document_id: "faq:whitening", title: "How much does teeth whitening cost?" },
    ]);

    const transcript = (await (
      await fixture.context.request("GET", `/api/v1/chatbot/sessions/${fixture.sessionId}/messages`, {
        headers: { authorization: `Bearer ${fixture.token}` },
      })
    ).json()) as { data: Array<{ role: string; text: string }> };
    expect(transcript.data.map((message) => [message.role, message.text])).toEqual([
      ["visitor", "How much is teeth whitening?"],
      ["bot", "Whitening costs 249 dollars per session."],
    ]);
  });

  test("Parley sends the retrieved chunk, the tool schemas, hours and the transcript, and nothing of another tenant", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(answer("Hello! How can I help?"), answer("It is 249 dollars."));
    await fixture.send("Hi there");
    await fixture.send("How much is teeth whitening?");

    const sent = provider.requests[1];
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.authorization).toBe("Bearer server-key-123");
    expect(sent?.body.model).toBe("test-model");
    const system = sent?.body.messages[0];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain(WHITENING_ANSWER);
    expect(system?.content).toContain("America/New_York");
    expect(system?.content).toContain("mon: 08:00-17:00");
    expect(system?.content).toContain("Never invent prices");
    expect(system?.content).toMatch(/FREE SLOTS \(30 minutes each, local time\): 2026-01-15T08:00/);
    // The earlier turn is in the transcript, then the new message last.
    expect(sent?.body.messages.slice(1).map((message) => [message.role, message.content])).toEqual([
      ["user", "Hi there"],
      ["assistant", "Hello! How can I help?"],
      ["user", "How much is teeth whitening?"],
    ]);
    expect(sent?.body.tools?.map((tool) => tool.function.name)).toEqual([
      "capture_lead",
      "book_appointment",
      "handoff",
    ]);
    const lead = sent?.body.tools?.[0]?.function.parameters;
    expect(lead?.required).toEqual(["name", "phone", "email", "interest"]);
    // No tool lets the model name a tenant, session or chatbot.
    for (const tool of sent?.body.tools ?? []) {
      expect(
        Object.keys(tool.function.parameters.properties).filter((key) => /tenant|session|chatbot/.test(key)),
      ).toEqual([]);
    }
    expect(JSON.stringify(provider.requests)).not.toContain(OTHER_TENANT_SECRET);
    expect(JSON.stringify(provider.requests)).not.toContain(fixture.otherTenantId);
  });

  test("with an embedding model, a document's chunk is retrieved, sent to the model, and named in sources with its URL", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider, { aiEmbeddingModel: "embed-small" });
    const deps = fixture.context.deps;
    const document = await addDocument(
      deps,
      fixture.tenantId,
      {
        title: "Parking and access",
        content: "# Parking\n\nFree parking for patients in the blue garage on Elm Street, level 2.",
        format: "markdown",
        sourceUrl: "https://smile.example/visit",
      },
      await embedderForTenant(deps, fixture.tenantId),
    );
    provider.script(answer("Park for free in the blue garage on Elm Street [1]."));
    const body = (await (await fixture.send("Where can I park my car?")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("Park for free in the blue garage on Elm Street.");
    expect(body.reply?.sources).toEqual([
      { document_id: document.document_id, title: "Parking and access", url: "https://smile.example/visit" },
    ]);
    const chat = provider.requests.find((request) => request.path.endsWith("/chat/completions"));
    expect(chat?.body.messages[0]?.content).toContain("blue garage on Elm Street, level 2");
    // The visitor's question was embedded for the vector half of the search.
    expect(
      provider.requests.some(
        (request) =>
          request.path.endsWith("/embeddings") &&
          request.body.input?.some((text) => text.includes("Where can I park my car?")),
      ),
    ).toBe(true);
  });

  test("the model call runs outside any database transaction", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    // Store-neutral: count the store's open transactions (SQLite's or PostgreSQL's alike); over
    // SQLite, also ask the connection itself, which sees a group commit's transaction too.
    const store = fixture.context.deps.store;
    const transaction = store.transaction.bind(store);
    let open = 0;
    let opened = 0;
    store.transaction = async (work) => {
      open++;
      opened++;
      try {
        return await transaction(work);
      } finally {
        open--;
      }
    };
    const sqlite = testPostgresUrl() ? null : fixture.context.deps.sqlite;
    provider.onRequest(() => open > 0 || (sqlite?.inTransaction ?? false));
    provider.script(answer("Sure."));
    expect((await fixture.send("Hello")).status).toBe(200);
    expect(provider.requests.map((request) => request.observed)).toEqual([false]);
    expect(opened).toBeGreaterThan(0); // the probe saw the reply's transactions
  });

  test("a tenant with ai.enabled false is answered by the rule engine and the provider is never called", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const patch = await fixture.context.request("PATCH", `/api/v1/chatbot/config?tenant_id=${fixture.tenantId}`, {
      body: { ai: { enabled: false } },
      headers: { "x-api-key": await apiKeyFor(fixture) },
    });
    expect(patch.status).toBe(200);
    const body = (await (await fixture.send("How much is teeth whitening?")).json()) as ReplyBody;
    expect(body.reply?.text).toContain("249 dollars");
    expect(body.reply?.sources).toBeUndefined();
    expect(provider.requests).toEqual([]);
  });
});

async function apiKeyFor(fixture: AssistantFixture): Promise<string> {
  const { createApiKey } = await import("../../src/auth/api-keys.ts");
  return (await createApiKey(fixture.context.deps, { tenantId: fixture.tenantId, name: "test" })).key;
}
