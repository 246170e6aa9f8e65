import { describe, expect, test } from "bun:test";
import { createRuleEngine, initialConversationState, type ConversationState } from "../../src/chat/engine.ts";
import { copyConversationState } from "../../src/chat/conversation-state.ts";
import { containsPhrase, findPhrase, normalizeForMatching } from "../../src/chat/intents.ts";
import { configForSector } from "../../src/chat/sector-templates.ts";
import { NOW_MS } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");

describe("the engine's state copy", () => {
  test("the input state is never changed, though the output's lead, mode and slots are", () => {
    const engine = createRuleEngine();
    const input: ConversationState = { ...initialConversationState(), mode: "collecting_lead", purpose: "lead", awaiting: "name", offeredSlots: [NOW_MS + 3_600_000] };
    const snapshot = structuredClone(input);
    const output = engine.reply({ config: DENTAL, state: input, message: "I'm Ana Lopez, ana@example.com, +1 415 555 0132", nowMs: NOW_MS, takenSlotStarts: [] });
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
    const words = ["call", "me", "back", "book", "books", "booking", "viewing", "viewings", "in", "pain", "pains", "don't", "price", "prices", "a", "as", "asap", "facebook", "mes"];
    const scan = (message: string, phrases: readonly string[]) => phrases.find((phrase) => containsPhrase(message, phrase)) ?? null;
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    let matched = 0;
    for (let round = 0; round < 3_000; round++) {
      const length = 1 + Math.floor(next() * 6);
      const message = normalizeForMatching(Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(" "));
      for (const list of lists) {
        const expected = scan(message, list);
        if (expected !== null) matched++;
        expect({ message, found: findPhrase(message, list) }).toEqual({ message, found: expected });
      }
    }
    expect(matched).toBeGreaterThan(1_000);
  });
});
