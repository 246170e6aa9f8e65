import { describe, expect, test } from "bun:test";
import { createSendDeadlines, type DeadlineTimers, slotWidthMs } from "../../src/webhooks/send-deadline.ts";

/** An injected clock whose timers fire only when the test moves time forward. */
function fakeTimers() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: DeadlineTimers = {
    now: () => now,
    setTimer: (callback, delayMs) => {
      const id = nextId++;
      pending.set(id, { at: now + delayMs, callback });
      return id;
    },
    clearTimer: (id) => pending.delete(id as number),
  };
  return {
    timers,
    pending: () => pending.size,
    advanceTo(at: number) {
      now = at;
      for (const [id, timer] of [...pending].sort(([, a], [, b]) => a.at - b.at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.callback();
      }
    },
  };
}

const settled = async (promise: Promise<unknown>): Promise<"pending" | "rejected"> =>
  Promise.race([
    promise.then(
      () => "pending" as const,
      () => "rejected" as const,
    ),
    Bun.sleep(0).then(() => "pending" as const),
  ]);

describe("shared send deadlines", () => {
  test("a send is aborted at its timeout, never before, and at most one slot later", async () => {
    const clock = fakeTimers();
    const deadlines = createSendDeadlines(clock.timers);
    clock.advanceTo(1_003);
    const deadline = deadlines.start(10_000);
    clock.advanceTo(11_002);
    expect(deadline.signal.aborted).toBe(false);
    expect(await settled(deadline.expired)).toBe("pending");
    clock.advanceTo(11_003 + slotWidthMs(10_000) - 1);
    expect(deadline.signal.aborted).toBe(true);
    expect(await settled(deadline.expired)).toBe("rejected");
    expect(deadlines.openSlots()).toBe(0);
  });

  test("sends starting within one slot share its signal; a later one gets its own", () => {
    const clock = fakeTimers();
    const deadlines = createSendDeadlines(clock.timers);
    clock.advanceTo(1);
    const first = deadlines.start(10_000);
    clock.advanceTo(5);
    const second = deadlines.start(10_000);
    clock.advanceTo(15);
    const third = deadlines.start(10_000);
    expect(second.signal).toBe(first.signal);
    expect(third.signal).not.toBe(first.signal);
    expect(clock.pending()).toBe(2);
    clock.advanceTo(10_010);
    expect(first.signal.aborted).toBe(true);
    expect(third.signal.aborted).toBe(false);
    clock.advanceTo(10_020);
    expect(third.signal.aborted).toBe(true);
  });

  test("when every send of a slot has ended its timer is cancelled and nothing is aborted", () => {
    const clock = fakeTimers();
    const deadlines = createSendDeadlines(clock.timers);
    const first = deadlines.start(300);
    const second = deadlines.start(300);
    first.release();
    first.release();
    expect(clock.pending()).toBe(1);
    second.release();
    expect(clock.pending()).toBe(0);
    expect(deadlines.openSlots()).toBe(0);
    clock.advanceTo(1_000);
    expect(second.signal.aborted).toBe(false);
  });

  test("a short timeout keeps a 1 ms slot", () => {
    expect(slotWidthMs(50)).toBe(1);
    expect(slotWidthMs(300)).toBe(3);
    expect(slotWidthMs(30_000)).toBe(10);
  });
});
