import { describe, expect, test } from "bun:test";
import {
  epochFromWallClock,
  offsetMinutesAt,
  wallClockAt,
  wallClockFromIntl,
} from "../../../src/chat/engine/timezone.ts";

// wallClockAt derives most wall clocks from a cached offset (one per zone and UTC hour) instead
// of asking Intl each time: it must read exactly what Intl reads, transitions included.

const ZONES = [
  "America/New_York", // DST at 2:00 local
  "Europe/London",
  "Australia/Lord_Howe", // a 30-minute DST shift
  "Asia/Kathmandu", // +5:45
  "Pacific/Chatham", // +12:45 / +13:45
  "America/St_Johns", // -3:30 / -2:30
  "Asia/Kolkata",
  "UTC",
];
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

describe("wall clocks in a zone", () => {
  test("the cached path reads what Intl reads, every 37 minutes of 2026 and every minute around each transition", () => {
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    let transitions = 0;
    for (const zone of ZONES) {
      let previous = offsetMinutesAt(start, zone);
      for (let at = start; at < end; at += 37 * MINUTE_MS) {
        expect({ zone, at, wall: wallClockAt(at, zone) }).toEqual({ zone, at, wall: wallClockFromIntl(at, zone) });
        const offset = offsetMinutesAt(at, zone);
        if (offset === previous) continue;
        previous = offset;
        transitions++;
        // A transition between this instant and the last: every minute of the three hours around it.
        for (let near = at - 2 * HOUR_MS; near < at + HOUR_MS; near += MINUTE_MS) {
          expect({ zone, near, wall: wallClockAt(near, zone) }).toEqual({
            zone,
            near,
            wall: wallClockFromIntl(near, zone),
          });
        }
      }
    }
    // New York, London, Lord Howe, Chatham and St John's each change twice a year.
    expect(transitions).toBe(10);
  });

  test("instants before 1980 and seconds-level offsets are read from Intl directly", () => {
    const amsterdam1930 = Date.UTC(1930, 5, 1, 12, 0);
    expect(wallClockAt(amsterdam1930, "Europe/Amsterdam")).toEqual(
      wallClockFromIntl(amsterdam1930, "Europe/Amsterdam"),
    );
  });

  test("wall clock → instant across the spring-forward gap and the fall-back hour", () => {
    // New York, 2026-03-08: 2:30 does not exist (lands at 1:30 EST); 2026-11-01: 1:30 happens twice.
    expect(
      new Date(
        epochFromWallClock({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, "America/New_York"),
      ).toISOString(),
    ).toBe("2026-03-08T06:30:00.000Z");
    expect(
      new Date(
        epochFromWallClock({ year: 2026, month: 11, day: 1, hour: 9, minute: 0 }, "America/New_York"),
      ).toISOString(),
    ).toBe("2026-11-01T14:00:00.000Z");
    expect(wallClockAt(Date.UTC(2026, 10, 1, 5, 30), "America/New_York")).toMatchObject({
      hour: 1,
      minute: 30,
      weekday: "sun",
    });
    expect(wallClockAt(Date.UTC(2026, 10, 1, 6, 30), "America/New_York")).toMatchObject({
      hour: 1,
      minute: 30,
      weekday: "sun",
    });
  });
});
