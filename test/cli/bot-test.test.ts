import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps } from "../helpers.ts";
import { cli } from "./cli-helpers.ts";

// The CLI runs over a SQLite file here in both runs.
const dir = mkdtempSync(join(tmpdir(), "parley-cli-bot-"));
const db = join(dir, "bot.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let tenantId: string;

/** `parley bot test ARGS… --db FILE`. */
const botTest = (...args: string[]) => cli(["bot", "test", ...args, "--db", db]);

beforeAll(async () => {
  const deps = buildDeps({}, {}, {}, db);
  tenantId = (await createTenant(deps, { name: "Clinic", sector: "dental-clinic" })).id;
  await updateBotConfig(deps, tenantId, {
    faq: [
      { id: "hours", question: "What are your opening hours?", answer: "We are open Monday to Friday, 8:00 to 18:00." },
    ],
  });
  closeDeps(deps);
});

describe("parley bot test", () => {
  test("add saves a case; a run where every case passes exits 0", async () => {
    const added = await botTest(
      "add",
      "--tenant",
      tenantId,
      "--question",
      "What are your opening hours?",
      "--contains",
      "Monday",
    );
    expect(added).toMatchObject({ code: 0, err: "" });
    expect(added.out).toMatch(/^added test case case_\w+ to ten_/);
    const run = await botTest("--tenant", tenantId);
    expect(run.code).toBe(0);
    expect(run.out).toContain("1 passed, 0 failed");
    expect(run.out).toContain("Monday to Friday");
  });

  test("a failing case makes the run exit 1, with the failed check named; --json prints the API's report", async () => {
    const added = await botTest(
      "add",
      "--tenant",
      tenantId,
      "--question",
      "Can I talk to a human?",
      "--action",
      "none",
      "--json",
    );
    expect(added.code).toBe(0);
    const caseId = (JSON.parse(added.out) as { case_id: string }).case_id;
    const run = await botTest("--tenant", tenantId);
    expect(run.code).toBe(1);
    expect(run.out).toContain("1 passed, 1 failed");
    expect(run.out).toMatch(new RegExp(`${caseId}\\s+FAIL.*action "none"`));

    const json = await botTest("--tenant", tenantId, "--json");
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as {
      passed: number;
      failed: number;
      results: Array<{ case_id: string; passed: boolean; answers: Array<{ action: string }> }>;
    };
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    expect(report.results.find((result) => result.case_id === caseId)?.answers[0]?.action).toBe("handoff");

    const onlyPassing = await botTest(
      "--tenant",
      tenantId,
      "--case",
      report.results.find((result) => result.passed)!.case_id,
    );
    expect(onlyPassing.code).toBe(0);
  });

  test("usage mistakes exit 2 and an unknown tenant exits 1, each with one line on stderr", async () => {
    expect((await botTest("add", "--tenant", tenantId, "--contains", "x")).code).toBe(2);
    expect((await botTest("add", "--tenant", tenantId, "--question", "hi", "--action", "refund")).code).toBe(2);
    expect((await botTest("add", "--tenant", tenantId, "--question", "hi")).code).toBe(2); // no expectation: 422
    expect((await cli(["bot", "test", "--db", db])).code).toBe(2);
    expect((await cli(["bot", "quiz", "--tenant", tenantId, "--db", db])).code).toBe(2);
    const unknown = await botTest("--tenant", "ten_nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe("parley: No such tenant.");
    expect((await cli(["bot", "--help"])).out).toContain("exits 1 when any case fails");
  });
});
