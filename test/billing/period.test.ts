import { describe, expect, test } from "bun:test";
import { periodEnd, periodOf } from "../../src/billing/usage.ts";

describe("quota periods: calendar months in UTC", () => {
  test("each instant names its own month, whatever was asked before it", () => {
    const lastOfJanuary = Date.UTC(2026, 0, 31, 23, 59, 59, 999);
    const firstOfFebruary = Date.UTC(2026, 1, 1);
    // Asked in every order: the remembered month must never answer for an instant outside it.
    expect(periodOf(lastOfJanuary)).toBe("2026-01");
    expect(periodOf(firstOfFebruary)).toBe("2026-02");
    expect(periodOf(lastOfJanuary)).toBe("2026-01");
    expect(periodOf(Date.UTC(2026, 0, 1))).toBe("2026-01");
    expect(periodOf(Date.UTC(2026, 0, 1) - 1)).toBe("2025-12");
    expect(periodOf(Date.UTC(2026, 11, 31, 12))).toBe("2026-12");
    expect(periodOf(Date.UTC(2027, 0, 1))).toBe("2027-01");
    expect(periodOf(Date.UTC(2028, 1, 29, 8))).toBe("2028-02");
  });

  test("a period ends at the first instant of the next month", () => {
    expect(periodEnd(Date.UTC(2026, 1, 14))).toBe(Date.UTC(2026, 2, 1));
    expect(periodEnd(Date.UTC(2026, 11, 31, 23))).toBe(Date.UTC(2027, 0, 1));
  });
});
