import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/lib/app-error.ts";
import type { BotConfig } from "../../../src/chat/engine/bot-config.ts";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";

function base(): BotConfig {
  return configForSector("dental-clinic");
}

/** The field named by the 422, or a failure when the patch was accepted or threw something else. */
function rejectedField(patch: unknown): string {
  try {
    validateBotConfigPatch(patch, base());
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.status).toBe(422);
    expect(appError.code).toBe("validation_failed");
    const details = appError.details as { field: string }[];
    return details[0]?.field ?? "";
  }
  throw new Error(`patch was accepted: ${JSON.stringify(patch)}`);
}

describe("validateBotConfigPatch", () => {
  test("a partial patch merges into the current config and leaves the rest alone", () => {
    const current = base();
    const next = validateBotConfigPatch(
      {
        greeting: "Welcome!",
        lead: { enabled: false },
        appointments: { business_hours: { sun: { open: "10:00", close: "12:00" } } },
      },
      current,
    );
    expect(next.greeting).toBe("Welcome!");
    expect(next.lead.enabled).toBe(false);
    expect(next.lead.default_country).toBe("US");
    expect(next.appointments.business_hours.sun).toEqual({ open: "10:00", close: "12:00" });
    expect(next.appointments.business_hours.mon).toEqual({ open: "08:00", close: "17:00" });
    expect(next.faq).toEqual(current.faq);
  });

  test("the current config is never mutated", () => {
    const current = base();
    const snapshot = structuredClone(current);
    validateBotConfigPatch({ bot_name: "Zed", handoff: { keywords: ["help me"] } }, current);
    expect(current).toEqual(snapshot);
  });

  test("a day can be closed with null and strings are trimmed", () => {
    const next = validateBotConfigPatch(
      { bot_name: "  Zed  ", appointments: { business_hours: { sat: null } } },
      base(),
    );
    expect(next.bot_name).toBe("Zed");
    expect(next.appointments.business_hours.sat).toBeNull();
  });

  test("origins are normalised to scheme, host and port and deduplicated", () => {
    const next = validateBotConfigPatch(
      { allowed_origins: ["https://Smile.example/", "https://smile.example", "http://localhost:5173"] },
      base(),
    );
    expect(next.allowed_origins).toEqual(["https://smile.example", "http://localhost:5173"]);
  });

  test("a body that is not an object is refused", () => {
    expect(rejectedField([])).toBe("body");
    expect(rejectedField("greeting")).toBe("body");
  });

  test("unknown keys are refused at every level", () => {
    expect(rejectedField({ colour: "red" })).toBe("colour");
    expect(rejectedField({ lead: { enabled: true, webhook: "x" } })).toBe("lead.webhook");
    expect(rejectedField({ appointments: { business_hours: { funday: null } } })).toBe(
      "appointments.business_hours.funday",
    );
    expect(rejectedField({ faq: [{ id: "a", question: "q", answer: "a", weight: 2 }] })).toBe("faq[0].weight");
  });

  test("values of the wrong type are refused", () => {
    expect(rejectedField({ greeting: 42 })).toBe("greeting");
    expect(rejectedField({ lead: { enabled: "yes" } })).toBe("lead.enabled");
    expect(rejectedField({ appointments: { slot_minutes: "30" } })).toBe("appointments.slot_minutes");
    expect(rejectedField({ handoff: { keywords: "human" } })).toBe("handoff.keywords");
    expect(rejectedField({ lead: [] })).toBe("lead");
  });

  test("a time zone Intl does not know is refused", () => {
    expect(rejectedField({ appointments: { timezone: "Mars/Olympus_Mons" } })).toBe("appointments.timezone");
    expect(validateBotConfigPatch({ appointments: { timezone: "Europe/Lisbon" } }, base()).appointments.timezone).toBe(
      "Europe/Lisbon",
    );
  });

  test("a country that is not an upper-case ISO-3166 code is refused", () => {
    expect(rejectedField({ lead: { default_country: "XX" } })).toBe("lead.default_country");
    expect(rejectedField({ lead: { default_country: "us" } })).toBe("lead.default_country");
    expect(rejectedField({ lead: { default_country: "USA" } })).toBe("lead.default_country");
  });

  test("slot lengths outside 5 to 240 minutes are refused", () => {
    expect(rejectedField({ appointments: { slot_minutes: 4 } })).toBe("appointments.slot_minutes");
    expect(rejectedField({ appointments: { slot_minutes: 241 } })).toBe("appointments.slot_minutes");
    expect(rejectedField({ appointments: { slot_minutes: 30.5 } })).toBe("appointments.slot_minutes");
    expect(validateBotConfigPatch({ appointments: { slot_minutes: 240 } }, base()).appointments.slot_minutes).toBe(240);
  });

  test("opening hours must be HH:MM with opening before closing", () => {
    expect(rejectedField({ appointments: { business_hours: { mon: { open: "9:00", close: "17:00" } } } })).toBe(
      "appointments.business_hours.mon.open",
    );
    expect(rejectedField({ appointments: { business_hours: { mon: { open: "09:00", close: "24:00" } } } })).toBe(
      "appointments.business_hours.mon.close",
    );
    expect(rejectedField({ appointments: { business_hours: { tue: { open: "17:00", close: "09:00" } } } })).toBe(
      "appointments.business_hours.tue.close",
    );
    expect(rejectedField({ appointments: { business_hours: { wed: { open: "10:00", close: "10:00" } } } })).toBe(
      "appointments.business_hours.wed.close",
    );
    expect(rejectedField({ appointments: { business_hours: { thu: "09:00-17:00" } } })).toBe(
      "appointments.business_hours.thu",
    );
  });

  test("more than 200 FAQ entries are refused", () => {
    const faq = Array.from({ length: 201 }, (_, index) => ({
      id: `q${index}`,
      question: `Question ${index}?`,
      answer: "Answer.",
    }));
    expect(rejectedField({ faq })).toBe("faq");
    expect(validateBotConfigPatch({ faq: faq.slice(0, 200) }, base()).faq).toHaveLength(200);
  });

  test("FAQ entries need a unique id, a question and an answer of bounded length", () => {
    expect(
      rejectedField({
        faq: [
          { id: "a", question: "Q?", answer: "A." },
          { id: "a", question: "Q2?", answer: "A2." },
        ],
      }),
    ).toBe("faq[1].id");
    expect(rejectedField({ faq: [{ id: "has space", question: "Q?", answer: "A." }] })).toBe("faq[0].id");
    expect(rejectedField({ faq: [{ id: "a", question: "   ", answer: "A." }] })).toBe("faq[0].question");
    expect(rejectedField({ faq: [{ id: "a", question: "Q?", answer: "x".repeat(2001) }] })).toBe("faq[0].answer");
    expect(rejectedField({ faq: [{ id: "a", question: "Q?", answer: "A.", keywords: [""] }] })).toBe(
      "faq[0].keywords[0]",
    );
  });

  test("strings longer than their bound are refused", () => {
    expect(rejectedField({ bot_name: "x".repeat(61) })).toBe("bot_name");
    expect(rejectedField({ greeting: "x".repeat(501) })).toBe("greeting");
    expect(rejectedField({ lead: { intent_keywords: ["x".repeat(61)] } })).toBe("lead.intent_keywords[0]");
  });

  test("hand-off numbers must be in range", () => {
    expect(rejectedField({ handoff: { low_confidence_threshold: 1.5 } })).toBe("handoff.low_confidence_threshold");
    expect(rejectedField({ handoff: { max_low_confidence_turns: 0 } })).toBe("handoff.max_low_confidence_turns");
    expect(
      validateBotConfigPatch({ handoff: { low_confidence_threshold: 0.5 } }, base()).handoff.low_confidence_threshold,
    ).toBe(0.5);
  });

  test("booking limits must be whole numbers in range", () => {
    expect(rejectedField({ appointments: { lead_time_minutes: -1 } })).toBe("appointments.lead_time_minutes");
    expect(rejectedField({ appointments: { max_days_ahead: 0 } })).toBe("appointments.max_days_ahead");
    expect(rejectedField({ appointments: { max_days_ahead: 366 } })).toBe("appointments.max_days_ahead");
  });

  test("origins with a path, another scheme or no host are refused", () => {
    expect(rejectedField({ allowed_origins: ["https://smile.example/widget"] })).toBe("allowed_origins[0]");
    expect(rejectedField({ allowed_origins: ["ftp://smile.example"] })).toBe("allowed_origins[0]");
    expect(rejectedField({ allowed_origins: ["smile.example"] })).toBe("allowed_origins[0]");
  });

  test("the sector must be a slug and the language one the engine speaks", () => {
    expect(rejectedField({ sector: "Dental Clinic" })).toBe("sector");
    expect(rejectedField({ language: "fr" })).toBe("language");
    expect(validateBotConfigPatch({ sector: "yoga-studio" }, base()).sector).toBe("yoga-studio");
  });
});
