import { afterEach, describe, expect, test } from "bun:test";
import { addDocument } from "../../src/knowledge/documents.ts";
import { answer, httpError, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

const CROWNS = "# Crowns\nA porcelain crown costs 1,100 dollars and takes two visits two weeks apart.";
const PAYMENT =
  "# Monthly payment plans\nYou can pay for treatments over 1,000 dollars in monthly instalments over 6, 12 or 24 months.";

async function clinic(): Promise<{ crowns: string; payment: string }> {
  const deps = fixture.context.deps;
  const crowns = await addDocument(
    deps,
    fixture.tenantId,
    { title: "Crowns", content: CROWNS, format: "markdown", sourceUrl: "https://smile.example/crowns" },
    null,
  );
  const payment = await addDocument(
    deps,
    fixture.tenantId,
    { title: "Payment", content: PAYMENT, format: "markdown", sourceUrl: "javascript:alert(1)" },
    null,
  );
  return { crowns: crowns.document_id, payment: payment.document_id };
}

/** The KNOWLEDGE section of the system prompt of the n-th answer call. */
const knowledgeOf = (n: number): string => {
  const system = provider.requests[n]?.body.messages[0]?.content ?? "";
  return system.slice(system.lastIndexOf("\n\nKNOWLEDGE") + "\n\nKNOWLEDGE".length);
};

describe("the assistant's retrieval: gate, follow-ups, languages and citations", () => {
  test("an off-topic question puts no passage in the prompt, and the model is told the material has no answer", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    await clinic();
    provider.script(answer("I don't have that information, but I can put you in touch with the team."));
    const body = (await (await fixture.send("what's the weather like tomorrow?")).json()) as ReplyBody;
    expect(knowledgeOf(0)).toContain("none of the business's material is relevant");
    expect(knowledgeOf(0)).not.toContain("[1]");
    expect(body.reply?.sources).toEqual([]);
    const system = provider.requests[0]?.body.messages[0]?.content ?? "";
    expect(system).toContain("don't have that information");
    expect(system).toContain("offer to take a message");
    expect(system).toContain("Answer in the language of the visitor's latest message");
    expect(system).toContain("Never say yes");
  });

  test("a follow-up is rewritten by the model into a standalone question that retrieves the payment passage, not crowns", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const { payment } = await clinic();
    provider.script(answer("A porcelain crown costs 1,100 dollars [1]."), answer("Yes, in monthly instalments [1]."));
    provider.rewrites("How much is a porcelain crown?", "Can I pay for a porcelain crown in monthly instalments?");
    await fixture.send("porcelain crown?");
    const body = (await (await fixture.send("and can I pay for it monthly?")).json()) as ReplyBody;
    // The rewrite call saw the earlier turn and the new message.
    expect(provider.rewriteRequests[1]?.body.messages[1]?.content).toContain("Visitor: porcelain crown?");
    expect(provider.rewriteRequests[1]?.body.messages[1]?.content).toContain(
      "Latest message: and can I pay for it monthly?",
    );
    expect(knowledgeOf(1)).toStartWith(":\n[1] Payment\nMonthly payment plans");
    expect(body.reply?.text).toBe("Yes, in monthly instalments.");
    expect(body.reply?.sources).toEqual([{ document_id: payment, title: "Payment" }]);
  });

  test("when the rewrite call fails the previous question is carried at lower weight and the payment passage still leads", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    await clinic();
    provider.script(answer("1,100 dollars [1]."), answer("Yes [1]."));
    provider.rewrites("porcelain crown?", httpError(503));
    await fixture.send("porcelain crown?");
    const response = await fixture.send("and can I pay for it monthly?");
    expect(response.status).toBe(200);
    expect(knowledgeOf(1)).toStartWith(":\n[1] Payment\n");
  });

  test("a Portuguese question is searched with the rewrite's English translation and finds the English passage", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const { payment } = await clinic();
    provider.rewrites("Posso parcelar o tratamento?\nCan I pay for the treatment in monthly instalments?");
    provider.script(answer("Sim, em parcelas mensais de 6, 12 ou 24 meses [1]."));
    const body = (await (await fixture.send("posso parcelar o tratamento?")).json()) as ReplyBody;
    expect(knowledgeOf(0)).toContain("Monthly payment plans");
    expect(body.reply?.sources?.map((source) => source.document_id)).toEqual([payment]);
  });

  test("only the cited passages' documents are sources; markers leave the streamed and the stored text alike", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const { crowns } = await clinic();
    provider.rewrites("How much is a porcelain crown and can I pay monthly?");
    // Both passages are in the prompt; the model cites only the second one it was given.
    provider.script(answer("Prices vary [2]. Ask us [3, 9] anytime."));
    const raw = await (
      await fixture.send("porcelain crown price and monthly payment plans?", { accept: "text/event-stream" })
    ).text();
    expect(knowledgeOf(0)).toContain("[1]");
    expect(knowledgeOf(0)).toContain("[2]");
    const cited = knowledgeOf(0).includes("[2] Crowns") ? crowns : null;
    const events = raw.split("\n\n").filter(Boolean);
    const deltas = events
      .filter((block) => block.startsWith("event: delta"))
      .map((block) => (JSON.parse(block.split("data: ")[1] ?? "{}") as { text: string }).text);
    const done = JSON.parse(events.at(-1)?.split("data: ")[1] ?? "null") as ReplyBody;
    expect(deltas.join("")).toBe("Prices vary. Ask us anytime.");
    expect(done.reply?.text).toBe("Prices vary. Ask us anytime.");
    // [3] and [9] name no passage: ignored.
    expect(done.reply?.sources?.map((source) => source.document_id)).toEqual(cited ? [cited] : [expect.any(String)]);
    expect(done.reply?.sources).toHaveLength(1);
  });

  test("ai.min_similarity sets the embedding model's relevance cosine: a model whose unrelated texts score high is calibrated by it", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider, { aiEmbeddingModel: "embed-small" });
    await clinic();
    const { createApiKey } = await import("../../src/auth/api-keys.ts");
    const key = (await createApiKey(fixture.context.deps, { tenantId: fixture.tenantId, name: "admin" })).key;
    const search = async () =>
      (await (
        await fixture.context.request("GET", "/api/v1/knowledge/search?q=what%27s+the+weather+like+tomorrow", {
          headers: { "x-api-key": key },
        })
      ).json()) as { data: Array<{ similarity?: number }> };
    // The fake provider's toy vectors (letter counts) put every text near every other one.
    const loose = await search();
    expect(loose.data.length).toBeGreaterThan(0);
    const highest = Math.max(...loose.data.map((hit) => hit.similarity ?? 0));
    expect(highest).toBeGreaterThan(0.5);
    const bad = await fixture.context.request("PATCH", "/api/v1/chatbot/config", {
      body: { ai: { min_similarity: 1.5 } },
      headers: { "x-api-key": key },
    });
    expect(bad.status).toBe(422);
    const patched = await fixture.context.request("PATCH", "/api/v1/chatbot/config", {
      body: { ai: { min_similarity: Math.min(1, highest + 0.001) } },
      headers: { "x-api-key": key },
    });
    expect(((await patched.json()) as { ai: { min_similarity: number } }).ai.min_similarity).toBeCloseTo(
      Math.min(1, highest + 0.001),
      6,
    );
    expect((await search()).data).toEqual([]);
  });

  test("a reply that cites nothing lists no sources", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    await clinic();
    provider.script(answer("Hello! How can I help?"));
    const body = (await (await fixture.send("porcelain crown?")).json()) as ReplyBody;
    expect(knowledgeOf(0)).toContain("[1] Crowns");
    expect(body.reply?.sources).toEqual([]);
  });
});
