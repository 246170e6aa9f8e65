import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse } from "./conversation.ts";

interface LeadScenario {
  slug: string;
  intent: string;
  name: string;
  invalidPhone: string;
  invalidPhoneReason: RegExp;
  phone: string;
  e164: string;
  email: string;
}

// Numbers are ones libphonenumber's full metadata accepts as valid for the template's country.
const SCENARIOS: LeadScenario[] = [
  {
    slug: "dental-clinic",
    intent: "I'd like a quote for Invisalign",
    name: "Ana Lopez",
    invalidPhone: "555-123-4567",
    invalidPhoneReason: /doesn't look valid — please include the area code/,
    phone: "(415) 555-0132",
    e164: "+14155550132",
    email: "Ana.Lopez@Example.com",
  },
  {
    slug: "real-estate",
    intent: "I want to sell my house",
    name: "Harper Jones",
    invalidPhone: "07700 900982",
    invalidPhoneReason: /doesn't look valid/,
    phone: "07911 123456",
    e164: "+447911123456",
    email: "harper@example.co.uk",
  },
  {
    slug: "beauty-salon",
    intent: "I'm interested in a bridal package for my wedding",
    name: "Chloe Nguyen",
    invalidPhone: "0412 34 56",
    invalidPhoneReason: /doesn't look valid/,
    phone: "0412 345 678",
    e164: "+61412345678",
    email: "chloe@example.com.au",
  },
  {
    slug: "car-service",
    intent: "Can I get an estimate for a transmission repair?",
    name: "Marcus Reed",
    invalidPhone: "312-555-01",
    invalidPhoneReason: /too short — please include the area code/,
    phone: "(312) 555-0147",
    e164: "+13125550147",
    email: "marcus.reed@example.com",
  },
];

for (const scenario of SCENARIOS) {
  describe(`lead capture for the ${scenario.slug} template`, () => {
    const config = configForSector(scenario.slug);

    test("details asked one at a time, with a bad phone and a bad e-mail re-asked, end in exactly one lead", () => {
      const chat = converse(config, [
        scenario.intent,
        scenario.name,
        scenario.invalidPhone,
        scenario.phone,
        "my.address@example",
        scenario.email,
        "thanks!",
      ]);
      const replies = chat.outputs.map((output) => output.reply.text);
      expect(replies[0]).toContain("your name");
      expect(replies[1]).toContain("phone number");
      expect(replies[2]).toMatch(scenario.invalidPhoneReason);
      expect(replies[3]).toContain("e-mail");
      expect(replies[4]).toMatch(/missing its domain/);
      expect(replies[5]).toContain(scenario.name.split(" ")[0] ?? "");

      const leads = actionsOfType(chat.actions, "lead_captured");
      expect(leads).toEqual([
        {
          type: "lead_captured",
          name: scenario.name,
          phone: scenario.e164,
          email: scenario.email.toLowerCase(),
          interest: scenario.intent,
          confidence: 0.9,
        },
      ]);
      expect(chat.outputs[5]?.actions).toHaveLength(1);
      expect(chat.state.mode).toBe("idle");
    });

    test("name, phone and e-mail given in one sentence are all picked up at once", () => {
      const chat = converse(config, [scenario.intent, `I'm ${scenario.name}, ${scenario.phone}, ${scenario.email}`]);
      const leads = actionsOfType(chat.actions, "lead_captured");
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({
        name: scenario.name,
        phone: scenario.e164,
        email: scenario.email.toLowerCase(),
      });
      expect(chat.outputs[1]?.actions).toHaveLength(1);
    });

    test("details offered before being asked are kept and only the missing one is asked for", () => {
      const chat = converse(config, [scenario.intent, scenario.email, scenario.name, scenario.phone]);
      expect(chat.outputs[1]?.reply.text).toContain("your name");
      expect(chat.outputs[2]?.reply.text).toContain("phone number");
      expect(chat.outputs[2]?.actions).toEqual([]);
      expect(actionsOfType(chat.actions, "lead_captured")[0]?.phone).toBe(scenario.e164);
    });
  });
}

describe("lead capture rules", () => {
  const dental = configForSector("dental-clinic");

  test("contact details sent without any question start and finish a lead", () => {
    const chat = converse(dental, ["Hi, this is Ana Lopez — 415 555 0132, ana@example.com"]);
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      {
        type: "lead_captured",
        name: "Ana Lopez",
        phone: "+14155550132",
        email: "ana@example.com",
        interest: "General enquiry",
        confidence: 0.8,
      },
    ]);
  });

  test("a lead is never captured twice in a session, even when details are sent again", () => {
    const chat = converse(dental, [
      "I'd like a quote for implants",
      "I'm Ana Lopez, 415-555-0132, ana@example.com",
      "my email is ana.lopez@example.com",
      "I'd like a quote for veneers too",
    ]);
    expect(actionsOfType(chat.actions, "lead_captured")).toHaveLength(1);
    expect(chat.state.lead.email).toBe("ana.lopez@example.com");
  });

  test("saying no thanks stops the questions and no lead is made", () => {
    const chat = converse(dental, [
      "I'd like a quote for implants",
      "Ana",
      "no thanks",
      "what are your opening hours?",
    ]);
    expect(chat.outputs[2]?.reply.text).toMatch(/won't take your details/);
    expect(chat.outputs[3]?.reply.text).toMatch(/Monday to Thursday/);
    expect(chat.actions).toEqual([]);
  });

  test("a price question gets its answer and a quote offer that one unrelated question withdraws", () => {
    const chat = converse(dental, ["How much does a cleaning cost?", "Is there parking?", "Ana Lopez"]);
    expect(chat.outputs[0]?.reply.text).toMatch(/\$120.*personalised quote.*your name/s);
    expect(chat.outputs[1]?.reply.text).toMatch(/Validated parking/);
    expect(chat.outputs[1]?.reply.text).not.toMatch(/your name/);
    expect(chat.outputs[1]?.state.mode).toBe("idle");
    // Out of the flow, a bare name is no longer read as an answer.
    expect(chat.state.lead.name).toBeNull();
  });

  test("a question typed where a name was expected is answered, not taken as a name", () => {
    const chat = converse(dental, ["I'd like a quote for veneers", "opening hours", "Ana"]);
    expect(chat.outputs[1]?.reply.text).toMatch(/Monday to Thursday[\s\S]*your name/);
    expect(chat.outputs[1]?.state.lead.name).toBeNull();
    expect(chat.state.lead.name).toBe("Ana");
  });

  test("with leads disabled, buying words and details never make a lead", () => {
    const noLeads = validateBotConfigPatch({ lead: { enabled: false } }, dental);
    const chat = converse(noLeads, ["I'd like a quote for implants", "I'm Ana Lopez, 415-555-0132, ana@example.com"]);
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([]);
    expect(chat.state.mode).toBe("idle");
  });
});

describe("contact details after the lead was captured", () => {
  const dental = configForSector("dental-clinic");
  const sentence = "I'm Ana Lopez, (415) 555-0132, ana@example.com";

  test("the same details sent again are acknowledged confidently, never as a miss or a hand-off", () => {
    const chat = converse(dental, [sentence, sentence, sentence, "Ana Lopez"]);
    for (const output of chat.outputs.slice(1)) {
      expect(output.reply.text).toBe("Thanks — we already have your details, Ana. Anything else I can help with?");
      expect(output.confidence).toBeGreaterThan(dental.handoff.low_confidence_threshold);
      expect(output.actions).toEqual([]);
      expect(output.state.lowConfidenceTurns).toBe(0);
    }
    expect(actionsOfType(chat.actions, "lead_captured")).toHaveLength(1);
  });

  test("changed details are confirmed and stored without a second lead", () => {
    const chat = converse(dental, [sentence, "my email is ana.lopez@example.com", "Ana Lopez, (415) 555-0199"]);
    expect(chat.outputs[1]?.reply.text).toBe(
      "Thanks, Ana — I've updated your e-mail to ana.lopez@example.com. Anything else I can help with?",
    );
    expect(chat.outputs[2]?.reply.text).toMatch(/updated your phone number to \+1 415 555 0199/);
    expect(chat.outputs[2]?.confidence).toBe(0.9);
    expect(chat.state.lead).toMatchObject({ phone: "+14155550199", email: "ana.lopez@example.com" });
    expect(actionsOfType(chat.actions, "lead_captured")).toHaveLength(1);
  });

  test("a broken new number is explained; a question beside an e-mail is answered", () => {
    const chat = converse(dental, [sentence, "my new number is 555-123-4567", "ana@example.com, is there parking?"]);
    expect(chat.outputs[1]?.reply.text).toMatch(/doesn't look valid/);
    expect(chat.outputs[2]?.reply.text).toMatch(/Validated parking/);
    expect(chat.state.lead.phone).toBe("+14155550132");
  });

  test("details repeated after a booking are acknowledged, and repeated after an abandoned collection resume it", () => {
    const booked = converse(dental, [
      "Monday at 10am",
      "yes",
      "Ana Lopez",
      "(415) 555-0132",
      "Ana Lopez, (415) 555-0132",
    ]);
    expect(booked.last).toMatch(/already have your details, Ana/);
    const abandoned = converse(dental, [
      "I'd like a quote for implants",
      "Ana Lopez",
      "415 555 0132",
      "what is the meaning of life",
      "blah blah",
      "Ana Lopez, 415 555 0132",
    ]);
    expect(abandoned.outputs[4]?.state.mode).toBe("idle");
    expect(abandoned.last).toBe("Great. And your e-mail address?");
    expect(abandoned.state.lowConfidenceTurns).toBe(0);
  });
});
