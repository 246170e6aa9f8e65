import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import type { ClaimedDelivery } from "../../src/db/store-webhooks.ts";
import { createFakeClock } from "../../src/lib/clock.ts";
import { decideAttempt, decideFinishedAttempts } from "../../src/webhooks/retry-policy.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const policy = loadConfig({ PARLEY_JWT_SECRET: "x".repeat(32) });
const failed = { ok: false, statusCode: 500, error: "http_500", durationMs: 5, responseExcerpt: null };

describe("the retry policy", () => {
  test("the default schedule waits 30 s, 5 min and 30 min after attempts 1, 2 and 3, from the end of each", () => {
    const clock = createFakeClock();
    const waits: number[] = [];
    for (const attempt of [1, 2, 3]) {
      const decision = decideAttempt(policy, attempt, false, clock.now());
      if (decision.outcome !== "retry") throw new Error(`attempt ${attempt}: ${decision.outcome}`);
      waits.push(decision.nextAttemptAt - clock.now());
      clock.set(decision.nextAttemptAt);
      clock.advance(2 * SECOND); // the next attempt takes a while; its wait starts when it ends
    }
    expect(waits).toEqual([30 * SECOND, 5 * MINUTE, 30 * MINUTE]);
  });

  test("a failed fourth attempt is a dead letter kept seven days from the end of that attempt", () => {
    const clock = createFakeClock();
    clock.advance(36 * MINUTE);
    expect(decideAttempt(policy, 4, false, clock.now())).toEqual({ outcome: "dead", expiresAt: clock.now() + 7 * DAY });
  });

  test("a success is done whatever the attempt number", () => {
    const clock = createFakeClock();
    for (const attempt of [1, 4, 9])
      expect(decideAttempt(policy, attempt, true, clock.now())).toEqual({ outcome: "succeeded" });
  });

  test("a configured schedule decides as many retries as it lists, then the dead letter", () => {
    const short = loadConfig({
      PARLEY_JWT_SECRET: "x".repeat(32),
      PARLEY_RETRY_DELAYS: "1s",
      PARLEY_DLQ_RETENTION: "1h",
    });
    const now = createFakeClock().now();
    expect(decideAttempt(short, 1, false, now)).toEqual({ outcome: "retry", nextAttemptAt: now + SECOND });
    expect(decideAttempt(short, 2, false, now)).toEqual({ outcome: "dead", expiresAt: now + 60 * MINUTE });
  });

  test("a finished attempt is numbered after the attempts its delivery already made", () => {
    const clock = createFakeClock();
    const delivery = (attempts: number): ClaimedDelivery => ({
      id: `wh_${attempts}`,
      tenantId: "ten_a",
      ruleId: "rule_a",
      event: "lead.created",
      attempts,
      cycle: 1,
      leaseToken: "att_1",
      url: "https://example.com/hook",
      secret: "s",
      data: "{}",
      occurredAt: 0,
    });
    const finishedAt = clock.now();
    const decided = decideFinishedAttempts(
      policy,
      [0, 3].map((attempts) => ({
        delivery: delivery(attempts),
        result: failed,
        startedAt: finishedAt - 5,
        finishedAt,
      })),
    );
    expect(decided.map((attempt) => attempt.decision)).toEqual([
      { outcome: "retry", nextAttemptAt: finishedAt + 30 * SECOND },
      { outcome: "dead", expiresAt: finishedAt + 7 * DAY },
    ]);
  });
});
