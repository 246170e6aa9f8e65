import { afterEach, describe, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant } from "../helpers.ts";
import { PLANS } from "../../src/plans/plans.ts";
import { AppError } from "../../src/lib/app-error.ts";
import { addDocument, listDocuments } from "../../src/knowledge/documents.ts";
import { addSource, listSources } from "../../src/knowledge/sources.ts";
import { createTestCase, listTestCases } from "../../src/test-set/cases.ts";
import { createRule } from "../../src/webhooks/rules.ts";

let deps: ReturnType<typeof buildDeps>;
let site: ReturnType<typeof Bun.serve> | null = null;
afterEach(() => {
  site?.stop(true);
  site = null;
  closeDeps(deps);
});

/** Each add's outcome: "added", or the refusal's status (any other error fails the test). */
const outcomes = (adds: Array<Promise<unknown>>) =>
  Promise.all(
    adds.map((add) =>
      add.then(
        () => "added",
        (error: unknown) => {
          if (error instanceof AppError && error.code === "plan_limit") return error.status;
          throw error;
        },
      ),
    ),
  );

/** `count` documents added one after another. */
async function addDocuments(tenantId: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++)
    await addDocument(deps, tenantId, { title: `Doc ${n}`, content: `Fact number ${n}.`, format: "text" }, null);
}

const tally = (results: Array<string | number>) => ({
  added: results.filter((result) => result === "added").length,
  refused: results.filter((result) => result === 402).length,
});

// On PostgreSQL (READ COMMITTED) each add runs on a connection of its own: without the tenant's
// lock on the cap, adds that count before another's insert commits all pass it.
describe("plan caps under concurrent adds", () => {
  test("N documents added at once against K places left: exactly K are kept and N−K are 402", async () => {
    deps = buildDeps();
    const { tenant } = await seedTenant(deps, "Clinic");
    const max = PLANS.free.knowledgeDocuments;
    const left = 3;
    await addDocuments(tenant.id, max - left);
    const results = await outcomes(
      Array.from({ length: 10 }, (_, n) =>
        addDocument(deps, tenant.id, { title: `Race ${n}`, content: `Racing fact ${n}.`, format: "text" }, null),
      ),
    );
    expect(tally(results)).toEqual({ added: left, refused: 10 - left });
    expect((await listDocuments(deps, tenant.id, { limit: 100 })).data).toHaveLength(max);
  });

  test("N URL sources added at once against K places left: exactly K are kept and N−K are 402", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => new Response(`Page ${new URL(request.url).pathname} says hello.`),
    });
    const { tenant } = await seedTenant(deps, "Clinic");
    const max = PLANS.free.knowledgeDocuments;
    const left = 2;
    await addDocuments(tenant.id, max - left);
    const results = await outcomes(
      Array.from({ length: 8 }, (_, n) =>
        addSource(deps, tenant.id, { kind: "url", url: `http://127.0.0.1:${site?.port}/page-${n}` }, async () => null),
      ),
    );
    expect(tally(results)).toEqual({ added: left, refused: 8 - left });
    expect((await listSources(deps, tenant.id, { limit: 100 })).data).toHaveLength(left);
    expect((await listDocuments(deps, tenant.id, { limit: 100 })).data).toHaveLength(max);
  });

  test("N webhook rules and N test cases created at once against the plan's caps: exactly the caps are kept", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    const { tenant } = await seedTenant(deps, "Clinic");
    const rules = PLANS.free.webhookRules;
    const ruleResults = await outcomes(
      Array.from({ length: rules + 5 }, (_, n) =>
        createRule(deps, tenant.id, {
          name: `Rule ${n}`,
          event: "lead.created",
          url: `http://127.0.0.1:9/hook-${n}`,
          secret: "s".repeat(32),
          active: true,
        }),
      ),
    );
    expect(tally(ruleResults)).toEqual({ added: rules, refused: 5 });
    expect(await deps.store.webhookRules.countRules(tenant.id)).toBe(rules);
    const cases = PLANS.free.testCases;
    const caseResults = await outcomes(
      Array.from({ length: cases + 5 }, (_, n) =>
        createTestCase(deps, tenant.id, { question: `Question ${n}?`, expect: { contains: ["answer"] } }),
      ),
    );
    expect(tally(caseResults)).toEqual({ added: cases, refused: 5 });
    expect((await listTestCases(deps, tenant.id)).data).toHaveLength(cases);
  });
});
