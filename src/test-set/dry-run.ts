import type { Deps } from "../deps.ts";
import type { BotConfig } from "../chat/bot-config.ts";
import { getBotConfig, mergeBotConfigPatch } from "../chat/bot-settings.ts";
import { changesBetween, evaluateTestSet, type CaseChange, type SetOutcome } from "./run-test-set.ts";

export interface DryRunReport {
  dry_run: true;
  /** Nothing was stored: the configuration is unchanged until the same PATCH is sent without dry_run. */
  saved: false;
  /** One line for a confirmation dialog: "3 cases pass now, 1 would fail after this change". */
  summary: string;
  current: SetOutcome;
  proposed: SetOutcome;
  /** Cases whose verdict the change would flip. */
  changes: CaseChange[];
}

const cases = (n: number) => `${n} case${n === 1 ? "" : "s"}`;

function summarize(changes: readonly CaseChange[], current: SetOutcome): string {
  const breaking = changes.filter((change) => change.after === "failed").length;
  const fixing = changes.filter((change) => change.after === "passed").length;
  const parts = [`${cases(current.passed)} of ${current.passed + current.failed} pass now`];
  if (breaking > 0) parts.push(`${breaking} would fail after this change`);
  if (fixing > 0) parts.push(`${fixing} would pass after this change`);
  if (breaking === 0 && fixing === 0) parts.push("no verdict changes");
  return parts.join(", ");
}

/**
 * The test set against the current configuration and against the one `patch` would make,
 * side by side; nothing is stored (not even a kept run: a proposal is not the bot's state).
 */
export async function dryRunConfigChange(deps: Deps, tenantId: string, patch: unknown): Promise<DryRunReport & { config: BotConfig }> {
  const current = await getBotConfig(deps, tenantId);
  const config = mergeBotConfigPatch(deps, current, patch);
  const rows = await deps.store.testSet.listTestCases(tenantId);
  const now = await evaluateTestSet(deps, tenantId, current, rows);
  const after = await evaluateTestSet(deps, tenantId, config, rows);
  const changes = changesBetween(now.results, after.results);
  return { dry_run: true, saved: false, summary: summarize(changes, now), current: now, proposed: after, changes, config };
}
