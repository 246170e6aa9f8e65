import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { checkSlot, parseAppointmentRequest, proposeSlots } from "../../../src/chat/engine/parse-appointment.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { formatSlot } from "../../../src/chat/engine/timezone.ts";
import { NOW_MS } from "./conversation.ts";

// Dental clinic: New York, Mon–Thu 08–17, Fri 08–14, Sat 09–13, Sun closed, 30-minute slots,
// 2 hours' notice, 60 days ahead. NOW_MS is Thursday 15 January 2026, 04:00 in New York.
const DENTAL = configForSector("dental-clinic");
const SALON = configForSector("beauty-salon");

function startOf(message: string, nowMs = NOW_MS, config = DENTAL): number | null {
  return parseAppointmentRequest(message, config, nowMs)?.startMs ?? null;
}

describe("parseAppointmentRequest", () => {
  test("'tomorrow at 3pm' is 15:00 wall-clock in the tenant's zone", () => {
    expect(startOf("tomorrow at 3pm")).toBe(Date.UTC(2026, 0, 16, 20, 0));
    expect(startOf("Can I come in tomorrow at 3pm?", NOW_MS, SALON)).toBe(Date.UTC(2026, 0, 16, 4, 0));
  });

  test("'tomorrow' is the tenant's tomorrow, not the server's", () => {
    // 22:00 on 15 January in New York is already 16 January in UTC.
    const lateEvening = Date.UTC(2026, 0, 16, 3, 0);
    expect(startOf("tomorrow at 10am", lateEvening)).toBe(Date.UTC(2026, 0, 16, 15, 0));
    // 20:00 on 15 January in Sydney, 09:00 UTC.
    expect(startOf("tomorrow at 10am", NOW_MS, SALON)).toBe(Date.UTC(2026, 0, 15, 23, 0));
  });

  test("explicit dates and weekdays are read with their times", () => {
    expect(startOf("Dec 3 10:00")).toBe(Date.UTC(2026, 11, 3, 15, 0));
    expect(startOf("next monday 9:30")).toBe(Date.UTC(2026, 0, 19, 14, 30));
  });

  test("a time after a spring-forward change uses summer time, not the offset of today", () => {
    const beforeChange = Date.UTC(2026, 2, 5, 15, 0); // Thursday 5 March, 10:00 EST
    expect(startOf("March 10 at 3pm", beforeChange)).toBe(Date.UTC(2026, 2, 10, 19, 0));
    expect(startOf("next monday at 9am", beforeChange)).toBe(Date.UTC(2026, 2, 9, 13, 0));
  });

  test("a time after a fall-back change uses winter time", () => {
    const beforeChange = Date.UTC(2026, 9, 29, 14, 0); // Thursday 29 October, 10:00 EDT
    expect(startOf("November 2 at 9am", beforeChange)).toBe(Date.UTC(2026, 10, 2, 14, 0));
    // Sydney leaves summer time on 5 April 2026.
    const sydneyBefore = Date.UTC(2026, 3, 1, 0, 0);
    expect(startOf("April 7 at 10am", sydneyBefore, SALON)).toBe(Date.UTC(2026, 3, 7, 0, 0));
  });

  test("an hour without am/pm that a business would not open at is read as afternoon", () => {
    expect(startOf("at 3")).toBe(Date.UTC(2026, 0, 15, 20, 0));
    expect(startOf("Monday at 10")).toBe(Date.UTC(2026, 0, 19, 15, 0));
  });

  test("a day without a time is reported as such", () => {
    const request = parseAppointmentRequest("next Monday please", DENTAL, NOW_MS);
    expect(request?.hasTime).toBe(false);
    expect(request?.startMs).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 19, 5, 0));
    expect(request?.startMs).toBeLessThan(Date.UTC(2026, 0, 20, 5, 0));
  });

  test("messages without a date, with 'now', or with only a phone number have no request", () => {
    for (const message of [
      "how much is a cleaning?",
      "I need help now",
      "my number is 0412 345 678",
      "ana2026@example.com",
    ]) {
      expect(parseAppointmentRequest(message, DENTAL, NOW_MS)).toBeNull();
    }
  });

  test("a formatted slot reads back as the same instant, so slot quick replies work", () => {
    const slot = Date.UTC(2026, 0, 16, 20, 0);
    expect(formatSlot(slot, "America/New_York")).toBe("Fri, Jan 16, 3:00 PM");
    expect(startOf(formatSlot(slot, "America/New_York"))).toBe(slot);
  });
});

describe("checkSlot", () => {
  const monday10 = Date.UTC(2026, 0, 19, 15, 0);
  const check = (startMs: number, takenStarts: number[] = [], nowMs = NOW_MS) =>
    checkSlot({ startMs, config: DENTAL, nowMs, takenStarts });

  test("an aligned free time within opening hours is ok", () => {
    expect(check(monday10)).toEqual({ ok: true });
    expect(check(Date.UTC(2026, 0, 16, 18, 30))).toEqual({ ok: true }); // Friday 13:30, ends at closing
  });

  test("each kind of refusal has its reason", () => {
    expect(check(Date.UTC(2026, 0, 14, 15, 0))).toEqual({ ok: false, reason: "past" });
    expect(check(Date.UTC(2026, 0, 15, 15, 0), [], Date.UTC(2026, 0, 15, 14, 0))).toEqual({
      ok: false,
      reason: "too_soon",
    });
    expect(check(Date.UTC(2026, 2, 17, 15, 0))).toEqual({ ok: false, reason: "too_far" });
    expect(check(Date.UTC(2026, 0, 18, 15, 0))).toEqual({ ok: false, reason: "closed" }); // Sunday
    expect(check(Date.UTC(2026, 0, 16, 19, 0))).toEqual({ ok: false, reason: "closed" }); // Friday 14:00, after closing
    expect(check(Date.UTC(2026, 0, 19, 12, 30))).toEqual({ ok: false, reason: "closed" }); // Monday 07:30, before opening
    expect(check(Date.UTC(2026, 0, 19, 15, 15))).toEqual({ ok: false, reason: "misaligned" });
    expect(check(monday10, [monday10])).toEqual({ ok: false, reason: "taken" });
  });

  test("an overlapping booking makes a slot taken", () => {
    expect(check(monday10, [monday10 - 15 * 60_000])).toEqual({ ok: false, reason: "taken" });
    expect(check(monday10, [monday10 - 30 * 60_000])).toEqual({ ok: true });
  });
});

describe("proposeSlots", () => {
  const ny = (ms: number) => formatSlot(ms, "America/New_York");

  test("the nearest free slots around a taken one are offered in time order", () => {
    const monday10 = Date.UTC(2026, 0, 19, 15, 0);
    expect(proposeSlots(monday10, DENTAL, NOW_MS, [monday10]).map(ny)).toEqual([
      "Mon, Jan 19, 9:00 AM",
      "Mon, Jan 19, 9:30 AM",
      "Mon, Jan 19, 10:30 AM",
    ]);
  });

  test("after closing, the last slots of the day are nearer than the next morning", () => {
    expect(proposeSlots(Date.UTC(2026, 0, 16, 20, 0), DENTAL, NOW_MS, []).map(ny)).toEqual([
      "Fri, Jan 16, 12:30 PM",
      "Fri, Jan 16, 1:00 PM",
      "Fri, Jan 16, 1:30 PM",
    ]);
  });

  test("a time in the past is answered with the first bookable slots", () => {
    expect(proposeSlots(Date.UTC(2026, 0, 14, 15, 0), DENTAL, NOW_MS, [], 2).map(ny)).toEqual([
      "Thu, Jan 15, 8:00 AM",
      "Thu, Jan 15, 8:30 AM",
    ]);
  });

  test("slots on a clock-change day are at the right wall-clock times", () => {
    const sundays = validateBotConfigPatch(
      { appointments: { business_hours: { sun: { open: "10:00", close: "14:00" } } } },
      DENTAL,
    );
    const springForward = Date.UTC(2026, 2, 8, 14, 0); // Sunday 8 March, 10:00 EDT
    expect(proposeSlots(springForward, sundays, Date.UTC(2026, 2, 5, 15, 0), [], 2)).toEqual([
      springForward,
      springForward + 30 * 60_000,
    ]);
    // Sydney, Sunday 5 April 2026: summer time ends at 03:00, the salon opens at 10:00 AEST.
    const salonOpen = Date.UTC(2026, 3, 5, 0, 0);
    expect(proposeSlots(salonOpen, SALON, Date.UTC(2026, 3, 1, 0, 0), [], 2)).toEqual([
      salonOpen,
      salonOpen + 30 * 60_000,
    ]);
  });

  test("every proposal passes checkSlot", () => {
    const taken = [Date.UTC(2026, 0, 16, 13, 0), Date.UTC(2026, 0, 16, 13, 30)];
    const slots = proposeSlots(Date.UTC(2026, 0, 16, 13, 0), DENTAL, NOW_MS, taken, 5);
    expect(slots).toHaveLength(5);
    for (const startMs of slots)
      expect(checkSlot({ startMs, config: DENTAL, nowMs: NOW_MS, takenStarts: taken })).toEqual({ ok: true });
  });

  test("a fully booked horizon offers nothing", () => {
    const oneDay = validateBotConfigPatch({ appointments: { max_days_ahead: 1, slot_minutes: 240 } }, DENTAL);
    // Thursday 15 January 08:00 and 12:00 are the only 4-hour slots within a day of 04:00 Thursday.
    const both = [Date.UTC(2026, 0, 15, 13, 0), Date.UTC(2026, 0, 15, 17, 0)];
    expect(proposeSlots(NOW_MS, oneDay, NOW_MS, [])).toEqual(both);
    expect(proposeSlots(NOW_MS, oneDay, NOW_MS, both)).toEqual([]);
  });
});
