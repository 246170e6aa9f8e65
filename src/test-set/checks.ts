import type { CaseExpectation } from "../db/schema-test-set.ts";
import type { EngineAction } from "../chat/engine/engine-types.ts";
import type { Source } from "../assistant/citations.ts";

/** What a conversation led to, in the words a case's `expect.action` uses. */
export type ActionKind = "lead" | "booking" | "handoff";

export interface Check {
  expectation: "contains" | "not_contains" | "action" | "source";
  expected: string;
  passed: boolean;
}

/** A lead correction (lead_updated) is part of taking a lead, not an action of its own. */
export function actionKinds(actions: readonly EngineAction[]): ActionKind[] {
  const kinds = new Set<ActionKind>();
  for (const action of actions) {
    if (action.type === "lead_captured" || action.type === "lead_updated") kinds.add("lead");
    else if (action.type === "appointment_booked") kinds.add("booking");
    else kinds.add("handoff");
  }
  return [...kinds];
}

/**
 * Text is compared case- and accent-insensitively, with runs of spaces as one: an owner who
 * writes "preco" or "Opening  hours" means the same words the bot says.
 */
const comparable = (text: string): string =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

/** One check per expectation; `reply` is the answer to the case's last turn (null: the bot stayed silent). */
export function checkExpectations(
  expect: CaseExpectation,
  answer: { reply: string | null; actions: readonly ActionKind[]; sources: readonly Source[] },
): Check[] {
  const reply = comparable(answer.reply ?? "");
  const checks: Check[] = [];
  for (const text of expect.contains ?? [])
    checks.push({
      expectation: "contains",
      expected: text,
      passed: answer.reply !== null && reply.includes(comparable(text)),
    });
  for (const text of expect.not_contains ?? [])
    checks.push({ expectation: "not_contains", expected: text, passed: !reply.includes(comparable(text)) });
  if (expect.action) {
    const passed = expect.action === "none" ? answer.actions.length === 0 : answer.actions.includes(expect.action);
    checks.push({ expectation: "action", expected: expect.action, passed });
  }
  if (expect.source)
    checks.push({
      expectation: "source",
      expected: expect.source,
      passed: answer.sources.some((source) => source.document_id === expect.source),
    });
  return checks;
}
