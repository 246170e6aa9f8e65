import { describe, expect, test } from "bun:test";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { converse } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");
const CARS = configForSector("car-service");
const answerOf = (config: typeof DENTAL, id: string): string =>
  config.faq.find((entry) => entry.id === id)?.answer ?? `no entry ${id}`;

describe("a question the FAQ answers is answered before any lead or booking step", () => {
  test("'can i pay for braces in installments?' gets the payment plans before any detail is asked", () => {
    const reply = converse(DENTAL, ["can i pay for braces in installments?"]).last;
    expect(reply).toContain(answerOf(DENTAL, "financing"));
    // The offer of a quote may follow, after the answer.
    expect(reply.indexOf("interest-free")).toBeLessThan(reply.indexOf("Could I get your name"));
    expect(reply).not.toStartWith("I'd be happy to help");
  });

  test("'how much for a full synthetic oil change and how long will it take?' gets the price and the duration", () => {
    const reply = converse(CARS, ["how much for a full synthetic oil change and how long will it take?"]).last;
    expect(reply).toStartWith(answerOf(CARS, "oil-change"));
    expect(reply).toContain("An oil change takes about 45 minutes");
  });

  test("a buying wish that no entry is about still goes to the details: renting a flat is not the documents answer", () => {
    const reply = converse(configForSector("real-estate"), [
      "I want to rent a 2 bedroom flat under 1500 a month, what do you have?",
    ]).last;
    expect(reply).not.toContain("photo ID");
    expect(reply).toContain("Could I get your name");
  });
});

describe("short follow-ups resolve against the previous topic", () => {
  test("'how much is in-office whitening?' then 'and the take-home one?' answers with the whitening entry", () => {
    const chat = converse(DENTAL, ["how much is in-office whitening?", "and the take-home one?"]);
    expect(chat.last).toContain("take-home trays with gel are $250");
    expect(chat.last).not.toContain("not sure");
  });

  test("'and on saturdays?' after the price of brakes gets the opening hours", () => {
    const chat = converse(CARS, ["how much are brake pads?", "and on saturdays?"]);
    expect(chat.last).toContain("Saturday 8 am–2 pm");
  });

  test("'how much is it?' after the implants answer stays on implants", () => {
    const chat = converse(DENTAL, ["do you do dental implants?", "how much is it?"]);
    expect(chat.last).toContain("$3,000–$4,500");
  });

  test("a follow-up with its own topic is answered on that topic", () => {
    const chat = converse(DENTAL, ["how much is in-office whitening?", "and do you do implants?"]);
    expect(chat.last).toContain(answerOf(DENTAL, "implants").slice(4));
    expect(chat.last).not.toContain("In-office whitening");
  });
});
