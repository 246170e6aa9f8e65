import { afterEach, describe, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, refusal } from "../helpers.ts";
import { PLANS } from "../../src/plans/plans.ts";
import { changePlan } from "../../src/billing/change-plan.ts";
import { addDocument, deleteDocument, listDocuments } from "../../src/knowledge/documents.ts";

let deps: ReturnType<typeof buildDeps>;
afterEach(() => closeDeps(deps));

describe("knowledge plan limits", () => {
  test("the free plan's document count is enforced with 402 plan_limit naming the limit, and deleting makes room", async () => {
    deps = buildDeps();
    const { tenant } = await seedTenant(deps, "Clinic");
    const max = PLANS.free.knowledgeDocuments;
    const ids: string[] = [];
    for (let n = 0; n < max; n++)
      ids.push(
        (await addDocument(deps, tenant.id, { title: `Doc ${n}`, content: `Fact number ${n}.`, format: "text" }, null))
          .document_id,
      );
    const error = await refusal(
      addDocument(deps, tenant.id, { title: "One too many", content: "More.", format: "text" }, null),
    );
    expect(error).toMatchObject({
      code: "plan_limit",
      status: 402,
      details: { limit: "knowledge_documents", max, current: max },
    });
    expect(error.message).toContain(`free plan allows ${max} knowledge documents`);
    await deleteDocument(deps, tenant.id, ids[0] as string);
    await addDocument(deps, tenant.id, { title: "Fits again", content: "More.", format: "text" }, null);
    expect((await listDocuments(deps, tenant.id, { limit: 100 })).data).toHaveLength(max);
  });

  test("the byte limit counts the stored text of all documents, and a bigger plan lifts it", async () => {
    deps = buildDeps();
    const { tenant } = await seedTenant(deps, "Clinic");
    const max = PLANS.free.knowledgeBytes;
    const paragraph = `${"word ".repeat(99)}word.\n\n`;
    const big = paragraph.repeat(Math.floor((max * 0.6) / paragraph.length));
    await addDocument(deps, tenant.id, { title: "Big", content: big, format: "text" }, null);
    const error = await refusal(
      addDocument(deps, tenant.id, { title: "Big again", content: big, format: "text" }, null),
    );
    expect(error).toMatchObject({ code: "plan_limit", status: 402, details: { limit: "knowledge_bytes", max } });
    await changePlan(deps, tenant.id, "starter");
    await addDocument(deps, tenant.id, { title: "Big again", content: big, format: "text" }, null);
    expect((await listDocuments(deps, tenant.id, { limit: 10 })).data).toHaveLength(2);
  });
});
