import { describe, expect, test } from "bun:test";
import { createRuleEngine, initialConversationState, type ConversationState } from "../../../src/chat/engine/engine.ts";
import { copyConversationState } from "../../../src/chat/engine/conversation-state.ts";
import { findBestFaqForQuestion } from "../../../src/chat/engine/faq-intent.ts";
import { answerParts, isOnePiece, splitQuestions } from "../../../src/chat/engine/faq-parts.ts";
import { containsPhrase, findPhrase, normalizeForMatching } from "../../../src/chat/engine/intents.ts";
import { isBareKnownName } from "../../../src/chat/engine/known-contact.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { NOW_MS } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");

/** A repeatable stream of numbers in [0, 1) for generated messages. */
const seeded = (start: number) => {
  let seed = start;
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
};

describe("the engine's state copy", () => {
  test("the input state is never changed, though the output's lead, mode and slots are", () => {
    const engine = createRuleEngine();
    const input: ConversationState = {
      ...initialConversationState(),
      mode: "collecting_lead",
      purpose: "lead",
      awaiting: "name",
      offeredSlots: [NOW_MS + 3_600_000],
    };
    const snapshot = structuredClone(input);
    const output = engine.reply({
      config: DENTAL,
      state: input,
      message: "I'm Ana Lopez, ana@example.com, +1 415 555 0132",
      nowMs: NOW_MS,
      takenSlotStarts: [],
    });
    expect(output.state.lead.email).toBe("ana@example.com");
    expect(output.state.turns).toBe(1);
    expect(input).toEqual(snapshot);
    expect(output.state.lead).not.toBe(input.lead);
  });

  test("copyConversationState copies the nested parts and keeps every field", () => {
    const state: ConversationState = { ...initialConversationState(), offeredSlots: [1, 2] };
    const copy = copyConversationState(state);
    expect(copy).toEqual(state);
    copy.lead.name = "Changed";
    copy.offeredSlots?.push(3);
    expect(state.lead.name).toBeNull();
    expect(state.offeredSlots).toEqual([1, 2]);
    const { offeredSlots: _omitted, ...withoutSlots } = initialConversationState();
    expect(Object.hasOwn(copyConversationState(withoutSlots), "offeredSlots")).toBe(false);
  });
});

describe("phrase matching with phrases normalised once", () => {
  test("whole words only, a plural last word allowed, the same answer on every call", () => {
    const message = normalizeForMatching("Can I book a Viewing? Call me back!");
    for (let round = 0; round < 2; round++) {
      expect(containsPhrase(message, "viewing")).toBe(true);
      expect(containsPhrase(message, "Call Me")).toBe(true);
      expect(containsPhrase(normalizeForMatching("two viewings please"), "viewing")).toBe(true);
      expect(containsPhrase(normalizeForMatching("on Facebook"), "book")).toBe(false);
      expect(containsPhrase(message, "  ")).toBe(false);
      expect(findPhrase(message, ["price", "call me back", "book"])).toBe("call me back");
      expect(findPhrase(message, ["price"])).toBeNull();
    }
  });

  test("findPhrase answers as a scan of the list in order would, through its first-word index", () => {
    const lists: string[][] = [
      ["price", "call me back", "call me", "book", "books", "in pain", "pain", "don't book", "a", "asap"],
      ["call me", "call me back", "viewing", "book in", "book"],
      [],
    ];
    const words = [
      "call",
      "me",
      "back",
      "book",
      "books",
      "booking",
      "viewing",
      "viewings",
      "in",
      "pain",
      "pains",
      "don't",
      "price",
      "prices",
      "a",
      "as",
      "asap",
      "facebook",
      "mes",
    ];
    const scan = (message: string, phrases: readonly string[]) =>
      phrases.find((phrase) => containsPhrase(message, phrase)) ?? null;
    const next = seeded(7);
    let matched = 0;
    for (let round = 0; round < 3_000; round++) {
      const length = 1 + Math.floor(next() * 6);
      const message = normalizeForMatching(
        Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(" "),
      );
      for (const list of lists) {
        const expected = scan(message, list);
        if (expected !== null) matched++;
        expect({ message, found: findPhrase(message, list) }).toEqual({ message, found: expected });
      }
    }
    expect(matched).toBeGreaterThan(1_000);
  });
});

describe("the engine's early answers agree with the full work", () => {
  test("a message of one piece gets the whole message's answer, as its split would give it", () => {
    const fragments = [
      "what are your hours",
      "how much is it",
      "and",
      "also",
      "do you take insurance",
      "where can I park",
      ",",
      "?",
      "!",
      ".",
      " ",
      "and how long does it take",
      "plus",
      "whitening",
      "thanks",
      "..",
      ";",
      "&",
      "AND",
      "Also",
      "\t",
      "?!",
      "x.",
      "how",
      "do",
      "and also",
      ",what",
    ];
    const next = seeded(11);
    const faq = DENTAL.faq;
    const threshold = DENTAL.handoff.low_confidence_threshold;
    const seen = { onePiece: 0, multiPart: 0 };
    for (let round = 0; round < 4_000; round++) {
      const message = Array.from(
        { length: 1 + Math.floor(next() * 5) },
        () => fragments[Math.floor(next() * fragments.length)],
      ).join(next() < 0.8 ? " " : "");
      const parts = splitQuestions(message).length;
      if (parts >= 2) seen.multiPart++;
      if (!isOnePiece(message)) continue;
      seen.onePiece++;
      expect({ message, parts: Math.min(parts, 2) }).toEqual({ message, parts: Math.min(parts, 1) });
      const whole = findBestFaqForQuestion(faq, message, threshold);
      const wholeMatches = whole && whole.confidence >= threshold ? [whole] : [];
      expect({ message, answers: answerParts(faq, message, whole, threshold) }).toEqual({
        message,
        answers: { matches: wholeMatches, unanswered: [] },
      });
    }
    expect(seen.onePiece).toBeGreaterThan(200);
    expect(seen.multiPart).toBeGreaterThan(200);
  });

  test("the bare-name test's first-word refusal answers as the full comparison", () => {
    const full = (message: string, name: string | null) => {
      if (!name) return false;
      const knownName = name.toLowerCase();
      const bare = message
        .replace(/[^\p{L}\s'’-]+/gu, " ")
        .replace(/\s+/g, " ")
        .trim()
        .toLowerCase();
      return bare === knownName || bare === knownName.split(" ")[0];
    };
    const names = [
      "Ana Lopez",
      "ana",
      "O'Neil",
      "Émile Zola",
      "Zoë Kim",
      "-x",
      "Bo",
      " Ana",
      "Ana\tLopez",
      "Ana-Maria Li",
      null,
      "",
    ];
    const pieces = [
      "ana",
      "Ana",
      "ANA",
      "anas",
      "lopez",
      "Lopez!",
      "o'neil",
      "O'NEIL",
      "'",
      "-",
      "émile",
      "Émile",
      "zola",
      "zoë",
      "kim",
      "bo",
      "Bo.",
      "hi",
      "123",
      "?",
      "  ",
      "\t",
      "ok",
      "İ",
      "x",
      "ana-maria",
      "li",
    ];
    const next = seeded(5);
    let bareNames = 0;
    for (let round = 0; round < 5_000; round++) {
      const message = Array.from(
        { length: 1 + Math.floor(next() * 3) },
        () => pieces[Math.floor(next() * pieces.length)],
      ).join(next() < 0.7 ? " " : "");
      for (const name of names) {
        const expected = full(message, name);
        if (expected) bareNames++;
        expect({ message, name, bare: isBareKnownName(message, name) }).toEqual({ message, name, bare: expected });
      }
    }
    expect(bareNames).toBeGreaterThan(200);
  });
});
