import { describe, expect, test } from "bun:test";
import {
  createRuleEngine,
  initialConversationState,
  restoreConversationState,
} from "../../../src/chat/engine/engine.ts";
import { configForSector, SECTOR_SLUGS } from "../../../src/chat/engine/sector-templates.ts";
import { converse, NOW_MS } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");

describe("rule engine", () => {
  test("a greeting gets the tenant's greeting and a menu of quick replies", () => {
    const chat = converse(DENTAL, ["Hello there!"]);
    expect(chat.outputs[0]?.reply).toEqual({
      text: DENTAL.greeting,
      quick_replies: [
        "What are your opening hours?",
        "How much does a cleaning cost?",
        "Which dental insurance plans do you accept?",
        "Book an appointment",
        "Talk to a person",
      ],
    });
  });

  test("an FAQ question with a typo gets the answer, with the search confidence", () => {
    const chat = converse(DENTAL, ["do you accept insurence?"]);
    expect(chat.last).toBe(DENTAL.faq.find((entry) => entry.id === "insurance")?.answer ?? "");
    expect(chat.outputs[0]?.confidence).toBeGreaterThanOrEqual(0.35);
    expect(chat.outputs[0]?.confidence).toBeLessThan(1);
  });

  test("a question that mentions booking but the FAQ answers well gets the answer and a Book button", () => {
    const chat = converse(DENTAL, ["Do you have appointments for new patients?"]);
    expect(chat.last).toMatch(/welcome new patients/);
    expect(chat.outputs[0]?.reply.quick_replies).toEqual(["Book an appointment"]);
    expect(chat.state.mode).toBe("idle");
  });

  test("asking to cancel a booking is not taken as a new booking", () => {
    const chat = converse(DENTAL, ["I need to cancel my appointment"]);
    expect(chat.last).toMatch(/24 hours' notice/);
    expect(chat.state.mode).toBe("idle");
  });

  test("thanks and goodbye get short polite replies", () => {
    const chat = converse(DENTAL, ["thanks a lot", "bye!"]);
    expect(chat.outputs[0]?.reply.text).toMatch(/You're welcome/);
    expect(chat.outputs[1]?.reply.text).toMatch(/have a great day/);
  });

  test("an empty message asks again without changing the conversation", () => {
    const chat = converse(DENTAL, ["   "]);
    expect(chat.last).toMatch(/didn't catch that/);
    expect({ ...chat.state, turns: 0 }).toEqual(initialConversationState());
  });

  test("the same input gives the same output, and the input state is left untouched", () => {
    const engine = createRuleEngine();
    const state = converse(DENTAL, ["I'd like a quote for implants"]).state;
    const frozen = structuredClone(state);
    const input = { config: DENTAL, state, message: "Ana Lopez", nowMs: NOW_MS, takenSlotStarts: [] };
    const first = engine.reply(input);
    const second = engine.reply(input);
    expect(second).toEqual(first);
    expect(state).toEqual(frozen);
    expect(first.state).not.toBe(state);
  });

  test("every reply of a long conversation carries a confidence between 0 and 1 in every sector", () => {
    const script = [
      "hi",
      "what are your hours?",
      "asdf",
      "how much?",
      "Ana Lopez",
      "nope",
      "book an appointment",
      "tomorrow at 11am",
      "yes",
      "Ana",
      "+1 415 555 0132",
      "ana@example.com",
      "human",
      "thanks",
      "bye",
    ];
    for (const slug of SECTOR_SLUGS) {
      for (const output of converse(configForSector(slug), script).outputs) {
        expect(output.confidence).toBeGreaterThanOrEqual(0);
        expect(output.confidence).toBeLessThanOrEqual(1);
        expect(output.reply.text.length).toBeGreaterThan(0);
      }
    }
  });

  test("a stored state survives restore, and damaged state falls back to a fresh one", () => {
    const state = converse(DENTAL, ["Monday at 10am"]).state;
    expect(restoreConversationState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(restoreConversationState(null)).toEqual(initialConversationState());
    expect(restoreConversationState({ mode: "dancing", turns: -3, lead: "x", pendingStartMs: "soon" })).toEqual(
      initialConversationState(),
    );
  });
});
