import { describe, expect, test } from "bun:test";
import { createRuleEngine, initialConversationState } from "../../../src/chat/engine/engine.ts";
import { LANGUAGES } from "../../../src/chat/engine/language.ts";
import { configForSector, SECTOR_SLUGS } from "../../../src/chat/engine/sector-templates.ts";
import { NOW_MS } from "./conversation.ts";

/**
 * Property: every FAQ question of every template, reworded three ways the way visitors type,
 * still gets that FAQ's answer from the engine (not just the search). The rewordings are
 * mechanical, so a new entry is covered the day it is added:
 *
 * 1. casual: lower case, no punctuation, "you"→"u", "are"→"r", "your"→"ur";
 * 2. wrapped: a greeting before and thanks after ("hi there, … thanks");
 * 3. typo: the longest word with a letter dropped from its middle, and "??" at the end.
 *    (Swapped letters, "implnats", are two edits to the fuzzy search and only found in words
 *    of ten letters or more: a known limit, see docs/chatbot-engine.md.)
 */

function casual(question: string): string {
  return question
    .toLowerCase()
    .replace(/[?!.,—]/g, "")
    .replace(/\byou\b/g, "u")
    .replace(/\bare\b/g, "r")
    .replace(/\byour\b/g, "ur")
    .trim();
}

/** The greeting and thanks around the question, in the entry's language. */
const WRAPS = { en: ["hi there", "thanks"], pt: ["oi", "obrigado"], es: ["hola", "gracias"] } as const;

function wrapped(question: string, lang: keyof typeof WRAPS = "en"): string {
  const [hello, thanks] = WRAPS[lang];
  return `${hello}, ${question.charAt(0).toLowerCase()}${question.slice(1)} ${thanks}`;
}

function typo(question: string): string {
  const words = question.replace(/[?!.]+$/, "").split(" ");
  let longest = 0;
  words.forEach((word, index) => {
    if (word.replace(/\W/g, "").length > (words[longest] ?? "").replace(/\W/g, "").length) longest = index;
  });
  const word = words[longest] ?? "";
  // Drop a letter in the middle: "cancellation" -> "cancelation".
  const at = Math.max(1, Math.floor(word.length / 2));
  words[longest] = word.slice(0, at) + word.slice(at + 1);
  return `${words.join(" ")}??`;
}

const REWORDINGS = { casual, wrapped, typo } as const;

describe("every FAQ question of every template, reworded three ways, gets its own answer", () => {
  const engine = createRuleEngine();
  for (const slug of SECTOR_SLUGS) {
    // Every language the templates write entries in is offered, so each entry is answered in its own.
    const config = { ...configForSector(slug), languages: [...LANGUAGES] };
    for (const entry of config.faq) {
      for (const [style, reword] of Object.entries(REWORDINGS)) {
        const message = style === "wrapped" ? wrapped(entry.question, entry.language) : reword(entry.question);
        test(`${slug}/${entry.id} (${style}): "${message}"`, () => {
          const output = engine.reply({
            config,
            state: initialConversationState(),
            message,
            nowMs: NOW_MS,
            takenSlotStarts: [],
          });
          expect(output.reply.text).toContain(entry.answer);
        });
      }
    }
  }
});

test("the rewordings really change the text", () => {
  expect(casual("Do you offer teeth whitening?")).toBe("do u offer teeth whitening");
  expect(wrapped("What are your opening hours?")).toBe("hi there, what are your opening hours? thanks");
  expect(typo("What is your cancellation policy?")).toBe("What is your cancelation policy??");
});
