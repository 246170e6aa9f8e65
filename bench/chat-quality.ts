/**
 * Conversation quality of the rule engine: the pass rate of every visitor turn of the corpus
 * (test/chat/engine/corpus/), per sector and per intent. `npm test` requires 100%; this prints where a
 * change to the engine or a template moved the numbers, and which turns fail.
 *
 *   npx bun bench/chat-quality.ts
 */
import { CORPUS } from "../test/chat/engine/corpus/index.ts";
import { runConversation, type TurnResult } from "../test/chat/engine/corpus/run-corpus.ts";
import { markdownTable } from "./lib.ts";

interface Tally {
  passed: number;
  total: number;
}

function add(tallies: Map<string, Tally>, key: string, passed: boolean): void {
  const tally = tallies.get(key) ?? { passed: 0, total: 0 };
  tally.total += 1;
  if (passed) tally.passed += 1;
  tallies.set(key, tally);
}

function rows(tallies: Map<string, Tally>): string[][] {
  return [...tallies.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { passed, total }]) => [key, String(total), String(passed), `${((passed / total) * 100).toFixed(1)}%`]);
}

const bySector = new Map<string, Tally>();
const byIntent = new Map<string, Tally>();
const failures: string[] = [];
const startedAt = performance.now();
let conversations = 0;

for (const [sector, list] of Object.entries(CORPUS)) {
  for (const conversation of list) {
    conversations += 1;
    const results: TurnResult[] = runConversation(conversation);
    for (const result of results) {
      const passed = result.problems.length === 0;
      add(bySector, sector, passed);
      add(byIntent, result.turn.intent, passed);
      add(bySector, "all", passed);
      if (!passed)
        failures.push(`- ${sector} · ${conversation.name} · «${result.turn.say}»: ${result.problems.join("; ")}`);
    }
  }
}
const elapsedMs = performance.now() - startedAt;

console.log(
  `# Chat quality — ${conversations} conversations, ${bySector.get("all")?.total ?? 0} visitor turns, ${elapsedMs.toFixed(0)} ms\n`,
);
console.log("## Per sector\n");
console.log(markdownTable(["sector", "turns", "passed", "pass rate"], rows(bySector)));
console.log("\n## Per intent\n");
console.log(markdownTable(["intent", "turns", "passed", "pass rate"], rows(byIntent)));
if (failures.length > 0) console.log(`\n## Failing turns\n\n${failures.join("\n")}`);
