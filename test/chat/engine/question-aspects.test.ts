import { describe, expect, test } from "bun:test";
import type { BotConfig } from "../../../src/chat/engine/bot-config.ts";
import { findBestFaqForQuestion } from "../../../src/chat/engine/faq-intent.ts";
import { splitQuestions } from "../../../src/chat/engine/faq-parts.ts";
import { findBestFaq } from "../../../src/chat/engine/faq-search.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { findTimeWindow } from "../../../src/chat/engine/time-window.ts";
import { detectUrgency, findUrgentEntry } from "../../../src/chat/engine/urgent.ts";
import { normalizeForMatching } from "../../../src/chat/engine/intents.ts";
import { converse } from "./conversation.ts";

/** A clinic whose owner wrote price and duration as separate entries, as many do. */
function splitPriceAndDuration(): BotConfig {
  const config = configForSector("general");
  config.faq = [
    {
      id: "cleaning-price",
      question: "How much does a cleaning cost?",
      answer: "A cleaning is $120 without insurance.",
      keywords: ["cleaning", "price", "cost", "how much"],
    },
    {
      id: "visit-length",
      question: "How long is a visit?",
      answer: "Most visits take about 45 minutes; a first visit about an hour.",
      keywords: ["how long", "visit", "appointment length"],
    },
    {
      id: "hours",
      question: "What are your opening hours?",
      answer: "Monday to Friday, 9 to 5.",
      keywords: ["hours", "open"],
    },
  ];
  return config;
}

describe("duration or price: what the question asks decides between close entries", () => {
  test("'how long does a cleaning take' gets the duration, although 'cleaning' is in the price entry", () => {
    const config = splitPriceAndDuration();
    // Word overlap alone picks the price entry: this is what the aspect check fixes.
    expect(findBestFaq(config.faq, "How long does a cleaning take?")?.entry.id).toBe("cleaning-price");
    expect(findBestFaqForQuestion(config.faq, "How long does a cleaning take?", 0.35)?.entry.id).toBe("visit-length");
    expect(converse(config, ["How long does a cleaning take?"]).last).toContain("about 45 minutes");
  });

  test("'how much is a cleaning' still gets the price", () => {
    expect(findBestFaqForQuestion(splitPriceAndDuration().faq, "how much is a cleaning", 0.35)?.entry.id).toBe(
      "cleaning-price",
    );
  });
});

describe("splitting a message into questions", () => {
  test("at question marks, 'and' + a question word, commas + a question word", () => {
    expect(
      splitQuestions("whats the price for whitening and do you do it on saturdays").map((part) => part.text),
    ).toEqual(["whats the price for whitening", "do you do it on saturdays"]);
    expect(splitQuestions("I'm a new patient, do you accept walk-ins?").map((part) => part.text)).toEqual([
      "I'm a new patient",
      "do you accept walk-ins",
    ]);
  });

  test("a follow-up without a topic borrows the previous part's words", () => {
    const parts = splitQuestions("how long does an oil change take and how much is it");
    expect(parts[1]).toEqual({ text: "how much is it", searchText: "how much is it how long does an oil change take" });
  });

  test("'salt and pepper' style 'and' inside one question is not a split", () => {
    expect(splitQuestions("do you do cut and colour on sundays?").map((part) => part.text)).toEqual([
      "do you do cut and colour on sundays",
    ]);
  });
});

describe("time windows", () => {
  test("named parts of the day and 'after' / 'before' a time", () => {
    expect(findTimeWindow("thursday afternoon")).toMatchObject({ fromMinute: 720, toMinute: 1020 });
    expect(findTimeWindow("anything in the morning")).toMatchObject({ fromMinute: 0, toMinute: 720 });
    expect(findTimeWindow("friday after 5")).toMatchObject({ fromMinute: 1020, toMinute: 1440 });
    expect(findTimeWindow("monday after 10am")).toMatchObject({ fromMinute: 600 });
    expect(findTimeWindow("before 9:30 am")).toMatchObject({ fromMinute: 0, toMinute: 570 });
    expect(findTimeWindow("after 3 days")).toBeNull();
    expect(findTimeWindow("next tuesday")).toBeNull();
  });
});

describe("urgent signals per sector", () => {
  const urgent = (sector: string, message: string): string | null =>
    detectUrgency(normalizeForMatching(message), configForSector(sector));

  test("each sector's own emergencies are urgent", () => {
    expect(urgent("dental-clinic", "my tooth is killing me")).toBe("killing me");
    expect(urgent("car-service", "car wont start and im stranded")).not.toBeNull();
    expect(urgent("real-estate", "burst pipe in the bathroom")).not.toBeNull();
    expect(urgent("beauty-salon", "my skin is burning after the wax")).not.toBeNull();
    expect(urgent("general", "need help asap")).toBe("asap");
  });

  test("ordinary questions are not urgent", () => {
    expect(urgent("dental-clinic", "are you open today?")).toBeNull();
    expect(urgent("dental-clinic", "does teeth whitening cause pain?")).toBeNull();
    expect(urgent("car-service", "how much is an oil change")).toBeNull();
    expect(urgent("real-estate", "how do viewings work")).toBeNull();
  });

  test("every template has an urgent answer", () => {
    for (const sector of ["dental-clinic", "car-service", "real-estate", "beauty-salon", "general"]) {
      expect(findUrgentEntry(configForSector(sector).faq)).not.toBeNull();
    }
  });

  test("without an urgent entry the bot still says it is urgent and offers a person", () => {
    const config = configForSector("general");
    config.faq = config.faq.filter((entry) => entry.id !== "urgent");
    const chat = converse(config, ["this is an emergency"]);
    expect(chat.last).toContain("that sounds urgent");
    expect(chat.outputs[0]?.reply.quick_replies).toContain("Talk to a person");
  });
});

describe("a question in the message that no entry covers", () => {
  test("is named after the answers that exist, with a person offered", () => {
    const config = configForSector("dental-clinic");
    config.faq = config.faq.filter((entry) => entry.id !== "walk-ins");
    const chat = converse(config, ["I'm a new patient, do you accept walk-ins?"]);
    expect(chat.last).toContain(config.faq.find((entry) => entry.id === "new-patients")?.answer ?? "?");
    expect(chat.last).toContain("I'm not sure about “do you accept walk-ins”");
    expect(chat.outputs[0]?.reply.quick_replies).toContain("Talk to a person");
  });
});
