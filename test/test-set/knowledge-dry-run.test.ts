import { afterEach, describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { testSql } from "../helpers.ts";
import { answer, startFakeProvider, type FakeProvider } from "../assistant/fake-provider.ts";
import { assistantFixture, type AssistantFixture } from "../assistant/setup.ts";
import { addCase } from "./helpers.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

const PARKING = {
  title: "Getting here",
  format: "markdown",
  content: "# Parking\nFree parking behind the building, entrance on Elm Street.",
};

async function setup() {
  provider = startFakeProvider();
  fixture = await assistantFixture(provider);
  return { "x-api-key": (await createApiKey(fixture.context.deps, { tenantId: fixture.tenantId })).key };
}

interface Report {
  dry_run: boolean;
  saved: boolean;
  summary: string;
  current: { passed: number; failed: number };
  proposed: { passed: number; failed: number };
  changes: Array<{ case_id: string; before: string; after: string }>;
}

const systemPrompt = (index: number) =>
  provider.requests[index]?.body.messages.find((message) => message.role === "system")?.content ?? "";

describe("dry runs of a knowledge change (with a model)", () => {
  test("deleting a document the answers cite: the case would fail, and nothing is deleted", async () => {
    const key = await setup();
    const created = await fixture.context.request("POST", "/api/v1/knowledge/documents", {
      headers: key,
      body: PARKING,
    });
    const { document_id } = (await created.json()) as { document_id: string };
    const { case_id } = await addCase(fixture.context, key, {
      question: "Where can I park?",
      expect: { source: document_id },
    });
    provider.script(
      answer("There is free parking behind the building [1]."),
      answer("There is free parking behind the building [1]."),
    );

    const response = await fixture.context.request(
      "DELETE",
      `/api/v1/knowledge/documents/${document_id}?dry_run=true`,
      { headers: key },
    );
    expect(response.status).toBe(200);
    const report = (await response.json()) as Report;
    expect(report).toMatchObject({
      dry_run: true,
      saved: false,
      current: { passed: 1 },
      proposed: { passed: 0, failed: 1 },
      changes: [{ case_id, before: "passed", after: "failed" }],
    });
    expect(report.summary).toBe("1 case of 1 pass now, 1 would fail after this change");
    expect(systemPrompt(0)).toContain("Free parking behind the building");
    expect(systemPrompt(1)).not.toContain("Free parking behind the building");
    expect(
      (await fixture.context.request("GET", `/api/v1/knowledge/documents/${document_id}`, { headers: key })).status,
    ).toBe(200);
    expect(
      (
        await fixture.context.request("DELETE", "/api/v1/knowledge/documents/doc_nothere?dry_run=true", {
          headers: key,
        })
      ).status,
    ).toBe(404);
  });

  test("adding a document: the model is given its passages in the proposed run only, and nothing is stored", async () => {
    const key = await setup();
    await addCase(fixture.context, key, { question: "Where can I park?", expect: { contains: ["Elm Street"] } });
    provider.script(
      answer("I'm sorry, I don't have that information."),
      answer("Park behind the building, entrance on Elm Street [1]."),
    );
    const sql = await testSql(fixture.context.deps);
    const chunks = async () =>
      (await sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM knowledge_chunks"))?.n;
    const before = await chunks();

    const response = await fixture.context.request("POST", "/api/v1/knowledge/documents?dry_run=true", {
      headers: key,
      body: PARKING,
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as Report & {
      proposed: { results: Array<{ answers: Array<{ sources: Array<{ document_id: string; title: string }> }> }> };
    };
    expect(report).toMatchObject({
      current: { passed: 0 },
      proposed: { passed: 1 },
      summary: "0 cases of 1 pass now, 1 would pass after this change",
    });
    expect(report.proposed.results[0]?.answers[0]?.sources).toEqual([
      { document_id: "doc_proposed", title: "Getting here" },
    ]);
    expect(systemPrompt(0)).not.toContain("Elm Street");
    expect(systemPrompt(1)).toContain("Elm Street");
    expect(await chunks()).toBe(before);
    expect(
      (await (await fixture.context.request("GET", "/api/v1/knowledge/documents", { headers: key })).json()).data,
    ).toEqual([]);

    const byUrl = await fixture.context.request("POST", "/api/v1/knowledge/documents?dry_run=true", {
      headers: key,
      body: { url: "https://clinic.example/parking" },
    });
    expect(byUrl.status).toBe(422);
  });

  test("a config dry run gives the model the proposed FAQ, not the stored one", async () => {
    const key = await setup();
    await addCase(fixture.context, key, { question: "Do you accept pets?", expect: { contains: ["pets"] } });
    provider.script(answer("Sorry, I don't know."), answer("Pets are welcome [1]."));
    const response = await fixture.context.request("PATCH", "/api/v1/chatbot/config?dry_run=true", {
      headers: key,
      body: { faq: [{ id: "pets", question: "Do you accept pets?", answer: "Pets are welcome in the waiting room." }] },
    });
    const report = (await response.json()) as Report;
    expect(report).toMatchObject({ current: { passed: 0 }, proposed: { passed: 1 } });
    expect(systemPrompt(0)).not.toContain("Pets are welcome in the waiting room");
    expect(systemPrompt(1)).toContain("Pets are welcome in the waiting room");
  });
});
