import type { Deps } from "../deps.ts";
import type { UnansweredQuestionRow, UnansweredResolution } from "../db/store-test-set.ts";
import type { CaseExpectation } from "../db/schema-test-set.ts";
import { getBotConfig, updateBotConfig } from "../chat/bot-settings.ts";
import type { FaqEntry } from "../chat/engine/bot-config.ts";
import { meaningfulWords } from "../chat/engine/faq-terms.ts";
import { isLang, type Lang } from "../chat/engine/language.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { createTestCase, type CaseView } from "./cases.ts";

/** The newest open questions that are grouped: enough for any owner to work through, bounded per request. */
export const UNANSWERED_SCAN = 1000;
const EXAMPLES = 3;
/** Share of the shorter question's words the two must share to be one group ("teeth whitening?" ~ "do you do teeth whitening"). */
const SAME_QUESTION = 0.6;

export interface UnansweredGroup {
  /** The id of the group's oldest question: stable while the group grows. */
  group_id: string;
  /** The newest wording. */
  question: string;
  count: number;
  languages: Lang[];
  first_seen: string;
  last_seen: string;
  examples: Array<{ session_id: string; question: string; asked_at: string }>;
}

interface Group {
  words: Set<string>;
  members: UnansweredQuestionRow[];
}

/** A question's meaningful words (stems), or its whole lower-cased text when it has none. */
function wordsOf(question: string): Set<string> {
  const words = meaningfulWords(question).map((forms) => forms.at(-1) ?? "");
  return new Set(words.length > 0 ? words : [question.toLowerCase().trim()]);
}

function similar(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared > 0 && shared / Math.min(a.size, b.size) >= SAME_QUESTION;
}

/** Greedy grouping, newest first: each question joins the first group whose newest wording it resembles. */
export function groupQuestions(rows: readonly UnansweredQuestionRow[]): Group[] {
  const groups: Group[] = [];
  for (const row of rows) {
    const words = wordsOf(row.question);
    const group = groups.find((candidate) => similar(candidate.words, words));
    if (group) group.members.push(row);
    else groups.push({ words, members: [row] });
  }
  return groups;
}

function groupView(group: Group): UnansweredGroup {
  const newest = group.members[0]!;
  const oldest = group.members.at(-1)!;
  const languages = [...new Set(group.members.map((row) => row.language).filter(isLang))];
  const sessions = new Set<string>();
  const examples: UnansweredGroup["examples"] = [];
  for (const row of group.members) {
    if (examples.length >= EXAMPLES || sessions.has(row.sessionId)) continue;
    sessions.add(row.sessionId);
    examples.push({ session_id: row.sessionId, question: row.question, asked_at: toIso(row.createdAt) });
  }
  return {
    group_id: oldest.id,
    question: newest.question,
    count: group.members.length,
    languages,
    first_seen: toIso(oldest.createdAt),
    last_seen: toIso(newest.createdAt),
    examples,
  };
}

/** The open questions grouped by similarity, the group asked most recently first. */
export async function listUnansweredGroups(deps: Deps, tenantId: string): Promise<{ data: UnansweredGroup[] }> {
  const rows = await deps.store.unanswered.listOpenUnanswered(tenantId, UNANSWERED_SCAN);
  return { data: groupQuestions(rows).map(groupView) };
}

async function requireGroup(deps: Deps, tenantId: string, groupId: string): Promise<Group> {
  const rows = await deps.store.unanswered.listOpenUnanswered(tenantId, UNANSWERED_SCAN);
  const group = groupQuestions(rows).find((candidate) => candidate.members.at(-1)?.id === groupId);
  if (!group)
    throw new AppError(
      "unanswered_group_not_found",
      404,
      "No such group of unanswered questions (it may have been fixed or dismissed).",
    );
  return group;
}

async function resolveGroup(
  deps: Deps,
  tenantId: string,
  group: Group,
  resolution: UnansweredResolution,
): Promise<number> {
  return deps.store.unanswered.resolveUnanswered(
    tenantId,
    group.members.map((row) => row.id),
    resolution,
    deps.clock.now(),
  );
}

/**
 * Adds an FAQ entry answering the group's question (its newest wording unless `question` is
 * given) and closes the group: the rule engine and the assistant answer it from then on.
 */
export async function answerGroupWithFaq(
  deps: Deps,
  tenantId: string,
  groupId: string,
  input: { answer: string; question?: string; keywords?: string[] },
) {
  const group = await requireGroup(deps, tenantId, groupId);
  const config = await getBotConfig(deps, tenantId);
  const entry: FaqEntry = {
    id: `unanswered-${groupId.slice(-12)}`,
    question: input.question ?? group.members[0]!.question,
    answer: input.answer,
    ...(input.keywords ? { keywords: input.keywords } : {}),
    ...(isLang(group.members[0]!.language) ? { language: group.members[0]!.language } : {}),
  };
  await updateBotConfig(deps, tenantId, { faq: [...config.faq, entry] });
  return {
    ok: true as const,
    group_id: groupId,
    resolved: await resolveGroup(deps, tenantId, group, "faq"),
    faq: entry,
  };
}

/** Saves the group's question as a test case with `expect`, and closes the group. */
export async function addGroupAsTestCase(
  deps: Deps,
  tenantId: string,
  groupId: string,
  input: { expect: CaseExpectation },
): Promise<{ ok: true; group_id: string; resolved: number; case: CaseView }> {
  const group = await requireGroup(deps, tenantId, groupId);
  const newest = group.members[0]!;
  const created = await createTestCase(deps, tenantId, {
    question: newest.question,
    language: isLang(newest.language) ? newest.language : null,
    expect: input.expect,
  });
  return {
    ok: true,
    group_id: groupId,
    resolved: await resolveGroup(deps, tenantId, group, "test_case"),
    case: created,
  };
}

/** Closes the group without a fix (spam, a question the business does not answer). */
export async function dismissGroup(
  deps: Deps,
  tenantId: string,
  groupId: string,
): Promise<{ ok: true; group_id: string; resolved: number }> {
  const group = await requireGroup(deps, tenantId, groupId);
  return { ok: true, group_id: groupId, resolved: await resolveGroup(deps, tenantId, group, "dismissed") };
}
