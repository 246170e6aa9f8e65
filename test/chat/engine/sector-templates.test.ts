import { describe, expect, test } from "bun:test";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { WEEKDAYS } from "../../../src/chat/engine/bot-config.ts";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector, SECTOR_SLUGS, SECTOR_TEMPLATES } from "../../../src/chat/engine/sector-templates.ts";

describe("sector templates", () => {
  test("the four sectors and the general fallback are available", () => {
    expect([...SECTOR_SLUGS].sort()).toEqual([
      "beauty-salon",
      "car-service",
      "dental-clinic",
      "general",
      "real-estate",
    ]);
  });

  for (const slug of SECTOR_SLUGS) {
    test(`the ${slug} template is a complete config that passes its own validation`, () => {
      const template = configForSector(slug);
      expect(template.sector).toBe(slug);
      // Validating the whole template as a patch exercises every field check at once.
      expect(validateBotConfigPatch(template, template)).toEqual(template);
      // Per language: entries in Portuguese and Spanish sit beside the English ones.
      const english = template.faq.filter((entry) => entry.language === undefined);
      expect(english.length).toBeGreaterThanOrEqual(6);
      expect(english.length).toBeLessThanOrEqual(12);
      for (const lang of ["pt", "es"])
        expect(template.faq.filter((entry) => entry.language === lang).length).toBeLessThanOrEqual(12);
      expect(template.handoff.low_confidence_threshold).toBe(0.35);
      expect(template.handoff.max_low_confidence_turns).toBe(2);
      expect(template.handoff.keywords).toContain("human");
      expect(WEEKDAYS.some((day) => template.appointments.business_hours[day] !== null)).toBe(true);
    });
  }

  test("every sector template answers the basics: hours, location and cancellation", () => {
    for (const slug of SECTOR_SLUGS) {
      const ids = configForSector(slug).faq.map((entry) => entry.id);
      expect(ids).toContain("hours");
      expect(ids).toContain("location");
      expect(ids).toContain("cancellation");
    }
  });

  test("each template's default country parses a local number", () => {
    const localNumbers: Record<string, string> = { US: "(415) 555-0132", GB: "020 7946 0958", AU: "0412 345 678" };
    for (const slug of SECTOR_SLUGS) {
      const country = configForSector(slug).lead.default_country;
      const sample = localNumbers[country];
      expect(sample).toBeDefined();
      expect(parsePhoneNumberFromString(sample ?? "", country as CountryCode)?.isValid()).toBe(true);
    }
  });

  test("configForSector returns a copy that can be edited without touching the template", () => {
    const copy = configForSector("dental-clinic");
    copy.faq[0]!.answer = "changed";
    copy.appointments.business_hours.sun = { open: "10:00", close: "12:00" };
    expect(SECTOR_TEMPLATES["dental-clinic"].faq[0]?.answer).not.toBe("changed");
    expect(SECTOR_TEMPLATES["dental-clinic"].appointments.business_hours.sun).toBeNull();
    expect(configForSector("dental-clinic").faq[0]?.answer).not.toBe("changed");
  });

  test("the shared templates are frozen against accidental edits", () => {
    expect(Object.isFrozen(SECTOR_TEMPLATES["real-estate"].faq)).toBe(true);
    expect(Object.isFrozen(SECTOR_TEMPLATES["real-estate"].appointments.business_hours)).toBe(true);
  });

  test("an unknown sector gets the general bot with its own slug", () => {
    const config = configForSector("yoga-studio");
    expect(config.sector).toBe("yoga-studio");
    expect(config.faq).toEqual(configForSector("general").faq);
  });
});
