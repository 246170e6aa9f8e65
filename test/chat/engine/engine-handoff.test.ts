import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse, NOW_MS, OFFICE_HOURS_MS } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");

describe("hand-off to a person", () => {
  test("a hand-off keyword hands off at once with reason keyword", () => {
    const chat = converse(DENTAL, ["Can I talk to a human please?"], { nowMs: OFFICE_HOURS_MS });
    expect(chat.actions).toEqual([{ type: "handoff", reason: "keyword", confidence: 0.95 }]);
    expect(chat.outputs[0]?.confidence).toBe(0.95);
    expect(chat.last).toMatch(/member of our team/);
    expect(chat.state.handedOff).toBe(true);
  });

  test("the 'Talk to a person' quick reply hands off even when the tenant removed every keyword", () => {
    const noKeywords = validateBotConfigPatch({ handoff: { keywords: [] } }, DENTAL);
    const chat = converse(noKeywords, ["Talk to a person"]);
    expect(actionsOfType(chat.actions, "handoff")).toEqual([{ type: "handoff", reason: "keyword", confidence: 0.95 }]);
  });

  test("the tenant's own keywords are the ones that count", () => {
    const custom = validateBotConfigPatch({ handoff: { keywords: ["manager"] } }, DENTAL);
    expect(actionsOfType(converse(custom, ["I want the manager"]).actions, "handoff")).toHaveLength(1);
    // "operator" is in the template's list, not among the built-in requests for a person (a human, the manager).
    expect(actionsOfType(converse(custom, ["I want an operator"]).actions, "handoff")).toHaveLength(0);
    expect(actionsOfType(converse(custom, ["I want a human"]).actions, "handoff")).toHaveLength(1);
  });

  test("keywords match whole words only", () => {
    const agents = validateBotConfigPatch({ handoff: { keywords: ["agent"] } }, DENTAL);
    expect(converse(agents, ["Do you use a whitening reagent?"]).actions).toEqual([]);
    expect(actionsOfType(converse(agents, ["Agent, please!"]).actions, "handoff")).toHaveLength(1);
  });

  test("the dental template does not hand off on 'whitening agent' or 'in person'", () => {
    expect(converse(DENTAL, ["Which whitening agent do you use? Can I pay in person?"]).actions).toEqual([]);
  });

  test("the real-estate template does not hand off on 'estate agent'", () => {
    const chat = converse(configForSector("real-estate"), ["Are you an estate agent?"]);
    expect(actionsOfType(chat.actions, "handoff")).toEqual([]);
  });

  test("two low-confidence turns in a row hand off with reason low_confidence", () => {
    const chat = converse(DENTAL, ["blah blah", "what is the meaning of life"], { nowMs: OFFICE_HOURS_MS });
    const first = chat.outputs[0];
    expect(first?.actions).toEqual([]);
    expect(first?.confidence).toBeLessThan(0.35);
    expect(first?.reply.quick_replies).toContain("Book an appointment");
    expect(first?.reply.quick_replies).toContain("Talk to a person");
    expect(chat.outputs[1]?.actions).toEqual([{ type: "handoff", reason: "low_confidence", confidence: 0.6 }]);
    expect(chat.last).toMatch(/couldn't help with that/);
  });

  test("extra words the FAQ does not know do not turn a parking question into a miss", () => {
    const chat = converse(DENTAL, ["Is there parking near the clinic?", "where can I park near you?"]);
    for (const output of chat.outputs) {
      expect(output.reply.text).toMatch(/Validated parking/);
      expect(output.confidence).toBeGreaterThan(0.35);
    }
    expect(chat.actions).toEqual([]);
    expect(chat.state.lowConfidenceTurns).toBe(0);
  });

  test("gibberish is still a miss: two such turns hand off with reason low_confidence", () => {
    const chat = converse(DENTAL, ["blorp zib quantum wuggle", "frobnicate the wibble"]);
    expect(chat.outputs[0]?.confidence).toBe(0);
    expect(chat.outputs[1]?.actions).toEqual([{ type: "handoff", reason: "low_confidence", confidence: 0.6 }]);
  });

  test("a confident answer in between resets the count", () => {
    const chat = converse(DENTAL, ["blah blah", "is there parking?", "what is the meaning of life"]);
    expect(chat.actions).toEqual([]);
    expect(chat.state.lowConfidenceTurns).toBe(1);
  });

  test("max_low_confidence_turns sets how many misses it takes", () => {
    const patient = validateBotConfigPatch({ handoff: { max_low_confidence_turns: 3 } }, DENTAL);
    const chat = converse(patient, ["blah", "blah blah", "blah blah blah"]);
    expect(chat.outputs[1]?.actions).toEqual([]);
    expect(chat.outputs[2]?.actions).toEqual([{ type: "handoff", reason: "low_confidence", confidence: 0.6 }]);
  });

  test("a raised threshold turns weak FAQ matches into misses", () => {
    const strict = validateBotConfigPatch({ handoff: { low_confidence_threshold: 0.9 } }, DENTAL);
    // "insurence" matches by typo tolerance only (0.85): fine by default, a miss at 0.9.
    expect(converse(DENTAL, ["do you take insurence?"]).outputs[0]?.reply.text).toMatch(/Delta Dental/);
    const chat = converse(strict, ["do you take insurence?"]);
    expect(chat.outputs[0]?.reply.quick_replies).toContain("Which dental insurance plans do you accept?");
    expect(chat.state.lowConfidenceTurns).toBe(1);
  });

  test("a session is handed off only once", () => {
    const chat = converse(DENTAL, ["human please", "hello? operator?", "blah", "blah blah"], {
      nowMs: OFFICE_HOURS_MS,
    });
    expect(actionsOfType(chat.actions, "handoff")).toHaveLength(1);
    expect(chat.outputs[1]?.reply.text).toMatch(/already been notified/);
  });

  test("a hand-off in the middle of a flow closes the flow but keeps the details", () => {
    const chat = converse(DENTAL, ["I'd like a quote for implants", "Ana Lopez", "actually can I speak to someone"]);
    expect(chat.outputs[2]?.actions).toEqual([{ type: "handoff", reason: "keyword", confidence: 0.95 }]);
    expect(chat.state.mode).toBe("idle");
    expect(chat.state.lead.name).toBe("Ana Lopez");
  });

  test("out of business hours a hand-off promises nobody: it asks for contact details and the question, in the visitor's language", () => {
    // NOW_MS is 04:00 in New York: the dental clinic (Mon–Fri from 8:00) is closed.
    const chat = converse(DENTAL, ["Can I talk to a human please?", "operator!"], { nowMs: NOW_MS });
    expect(chat.actions).toEqual([{ type: "handoff", reason: "keyword", confidence: 0.95 }]);
    expect(chat.outputs[0]?.reply.text).toMatch(/away right now/);
    expect(chat.outputs[0]?.reply.text).toMatch(/your name, your phone number or e-mail and your question/);
    expect(chat.outputs[0]?.reply.text).not.toMatch(/join this chat|as soon as they can/);
    expect(chat.last).toMatch(/first thing when they're back/);
    const spanish = converse(
      validateBotConfigPatch({ languages: ["en", "es"] }, DENTAL),
      ["quiero hablar con una persona"],
      { nowMs: NOW_MS },
    );
    expect(spanish.last).toMatch(/no está ahora mismo/);
  });

  test("the opening minute promises a person, the minute before takes a message (the tenant's time zone)", () => {
    const opening = Date.UTC(2026, 0, 15, 13, 0); // Thursday 08:00 in New York
    const hours = DENTAL.appointments.business_hours.thu;
    expect(hours?.open).toBe("08:00");
    expect(converse(DENTAL, ["human please"], { nowMs: opening - 60_000 }).last).toMatch(/away right now/);
    expect(converse(DENTAL, ["human please"], { nowMs: opening }).last).toMatch(/member of our team/);
  });
});
