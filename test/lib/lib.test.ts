import { describe, expect, spyOn, test } from "bun:test";
import { createFakeClock } from "../../src/lib/clock.ts";
import { constantTimeEqual, randomBase62 } from "../../src/lib/crypto.ts";
import { formatDuration, parseDuration } from "../../src/lib/durations.ts";
import { createIdGenerator, newId } from "../../src/lib/ids.ts";
import { createSlidingWindow } from "../../src/lib/sliding-window.ts";

describe("durations", () => {
  test("human durations parse to milliseconds", () => {
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("5m")).toBe(300_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("1.5s")).toBe(1500);
  });
  test("anything else is null", () => {
    for (const bad of ["", "5", "soon", "-1s", "5 m", "1w", "s"]) expect(parseDuration(bad)).toBeNull();
  });
  test("durations format to their shortest exact form", () => {
    expect(formatDuration(1_800_000)).toBe("30m");
    expect(formatDuration(90_000)).toBe("90s");
    expect(formatDuration(250)).toBe("250ms");
  });
});

describe("ids", () => {
  test("ids carry their prefix and sort by creation time", () => {
    const first = newId("wh", 1_000);
    const second = newId("wh", 2_000);
    expect(first).toMatch(/^wh_[0-9a-z]{26}$/);
    expect(first < second).toBe(true);
  });
  test("ids made in the same millisecond differ and keep their creation order", () => {
    const ids = Array.from({ length: 1000 }, () => newId("evt", 5));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });

  test("inside one millisecond the random part counts up in base 32, carrying like digits", () => {
    // The first id of a new millisecond draws "0zzz…z"; the next one carries through every z.
    const draw = spyOn(crypto, "getRandomValues").mockImplementation(
      <T extends ArrayBufferView | null>(array: T): T => {
        if (array instanceof Uint8Array) array.set(Array.from({ length: array.length }, (_, i) => (i === 0 ? 0 : 31)));
        return array;
      },
    );
    try {
      const next = createIdGenerator();
      expect(next("msg", 50_000)).toEndWith("0zzzzzzzzzzzzzzz");
      expect(next("msg", 50_000)).toEndWith("1000000000000000");
      expect(next("msg", 50_000)).toEndWith("1000000000000001");
    } finally {
      draw.mockRestore();
    }
  });

  test("ids stay in creation order when the clock steps back", () => {
    const later = newId("msg", 10_000);
    const earlier = newId("msg", 9_000);
    expect(later < earlier).toBe(true);
  });
});

describe("crypto helpers", () => {
  test("constantTimeEqual compares content and length", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
  test("randomBase62 has the asked length and alphabet", () => {
    const value = randomBase62(40);
    expect(value).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(randomBase62(40)).not.toBe(value);
  });
});

describe("sliding window", () => {
  test("the request past the limit is refused until the oldest one leaves the window", () => {
    const clock = createFakeClock(0);
    const window = createSlidingWindow(3, 60_000, clock);
    expect(window.take("k").remaining).toBe(2);
    clock.advance(10_000);
    window.take("k");
    clock.advance(10_000);
    expect(window.take("k").remaining).toBe(0);
    const refused = window.take("k");
    expect(refused.allowed).toBe(false);
    // The first request was at t=0: a slot frees at t=60 s, 40 s from now.
    expect(refused.retryAfterMs).toBe(40_000);
    clock.advance(40_000);
    expect(window.take("k").allowed).toBe(true);
    expect(window.take("k").allowed).toBe(false);
  });
  test("keys are counted apart and idle keys are swept", () => {
    const clock = createFakeClock(0);
    const window = createSlidingWindow(1, 1_000, clock);
    expect(window.take("a").allowed).toBe(true);
    expect(window.take("b").allowed).toBe(true);
    expect(window.take("a").allowed).toBe(false);
    clock.advance(5_000);
    window.take("c");
    expect(window.size()).toBe(1);
  });
});

describe("parseIsoTime", () => {
  test("reads dates and date-times with a zone", async () => {
    const { parseIsoTime } = await import("../../src/lib/clock.ts");
    expect(parseIsoTime("2026-01-15")).toBe(Date.UTC(2026, 0, 15));
    expect(parseIsoTime("2026-01-15T09:00:00Z")).toBe(Date.UTC(2026, 0, 15, 9));
    expect(parseIsoTime("2026-01-15T09:00:00+01:00")).toBe(Date.UTC(2026, 0, 15, 8));
    for (const bad of ["yesterday", "2026-13-45", "15/01/2026", "2026-01-15Tnoon", ""])
      expect(parseIsoTime(bad)).toBeNull();
  });
});
