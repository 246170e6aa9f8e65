import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { randomBase62 } from "../lib/crypto.ts";
import { formatDuration, parseDuration } from "../lib/durations.ts";
import { invalidField } from "../lib/validate.ts";
import { getRuleRow } from "./rules.ts";

export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Longer than a week would keep a secret the tenant wants gone signing for too long. */
export const MAX_ROTATION_OVERLAP_MS = 7 * 24 * 3_600_000;

export interface RotateSecretInput {
  /** The new secret; generated (`whsec_` + 32 base62 characters) when absent. */
  secret?: string;
  /** How long the replaced secret keeps signing, as a duration (`24h`, `30m`, `0s`). */
  overlap?: string;
}

export interface RotatedSecret {
  rule_id: string;
  /** Shown once: it is never returned again. */
  secret: string;
  /** When the replaced secret stops signing; null when the overlap is 0 (replaced at once). */
  previous_secret_expires_at: string | null;
}

function overlapMs(overlap: string | undefined): number {
  if (overlap === undefined) return DEFAULT_ROTATION_OVERLAP_MS;
  const ms = parseDuration(overlap);
  if (ms === null || ms > MAX_ROTATION_OVERLAP_MS) {
    throw invalidField(
      "overlap",
      `must be a duration such as 24h or 30m, at most ${formatDuration(MAX_ROTATION_OVERLAP_MS)}`,
    );
  }
  return ms;
}

/**
 * Replaces a rule's secret while the old one keeps signing for the overlap: every delivery
 * carries both Standard Webhooks signatures until then, so receivers switch keys at their own
 * pace. Only one secret is kept back: rotating again during an overlap drops the oldest,
 * since the secret being replaced is the one receivers were told to move to.
 */
export async function rotateRuleSecret(
  deps: Deps,
  tenantId: string,
  ruleId: string,
  input: RotateSecretInput,
): Promise<RotatedSecret> {
  const overlap = overlapMs(input.overlap);
  if (input.secret !== undefined && (input.secret.length < 16 || input.secret.length > 256)) {
    throw invalidField("secret", "must be 16 to 256 characters");
  }
  const current = await getRuleRow(deps, tenantId, ruleId);
  const secret = input.secret ?? `whsec_${randomBase62(32)}`;
  if (secret === current.secret) throw invalidField("secret", "must differ from the rule's current secret");
  const now = deps.clock.now();
  const until = overlap > 0 ? now + overlap : null;
  await deps.store.webhookRules.updateRule(ruleId, {
    secret,
    previousSecret: until === null ? null : current.secret,
    previousSecretUntil: until,
    updatedAt: now,
  });
  return { rule_id: ruleId, secret, previous_secret_expires_at: until === null ? null : toIso(until) };
}
