import { describe, expect, test } from "bun:test";
import { findBestFaq, searchFaq } from "../../../src/chat/engine/faq-search.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";

const DENTAL_FAQ = configForSector("dental-clinic").faq;
const CAR_FAQ = configForSector("car-service").faq;

describe("FAQ search", () => {
  test("asking a question word for word matches it with full confidence", () => {
    const match = findBestFaq(DENTAL_FAQ, "What is your cancellation policy?");
    expect(match?.entry.id).toBe("cancellation");
    expect(match?.confidence).toBe(1);
  });

  test("a typo still finds the right entry above the default threshold", () => {
    const insurance = findBestFaq(DENTAL_FAQ, "do you take insurence?");
    expect(insurance?.entry.id).toBe("insurance");
    expect(insurance?.confidence).toBeGreaterThan(0.35);
    expect(insurance?.confidence).toBeLessThan(1);
    expect(findBestFaq(DENTAL_FAQ, "how much does a cleanig cost")?.entry.id).toBe("cleaning-price");
  });

  test("keywords find entries whose question uses other words", () => {
    expect(findBestFaq(DENTAL_FAQ, "I have a toothache")?.entry.id).toBe("emergency");
    expect(findBestFaq(DENTAL_FAQ, "do you see kids?")?.entry.id).toBe("new-patients");
    expect(findBestFaq(CAR_FAQ, "my check engine light is on")?.entry.id).toBe("diagnostics");
  });

  test("words no FAQ entry knows do not sink a clear keyword match", () => {
    const parking = findBestFaq(DENTAL_FAQ, "Is there parking near the clinic?");
    expect(parking?.entry.id).toBe("location");
    expect(parking?.confidence).toBeGreaterThan(0.6);
    expect(parking?.unknownWords).toBe(2);
    expect(findBestFaq(DENTAL_FAQ, "Is there parking?")?.confidence).toBe(1);
  });

  test("other forms of a question's words count: cancelling for cancellation, financing for finance", () => {
    const cancelling = findBestFaq(DENTAL_FAQ, "is there a fee for cancelling late?");
    expect(cancelling?.entry.id).toBe("cancellation");
    expect(cancelling?.confidence).toBeGreaterThan(0.6);
    expect(findBestFaq(CAR_FAQ, "can I finance a big repair?")?.entry.id).toBe("financing");
  });

  test('a keyword made of stop words ("how much") tips a message between two entries', () => {
    expect(findBestFaq(DENTAL_FAQ, "how much is a teeth cleaning?")?.entry.id).toBe("cleaning-price");
    expect(findBestFaq(DENTAL_FAQ, "how much is teeth whitening?")?.entry.id).toBe("whitening");
  });

  test("a message about something else finds nothing or stays below the threshold", () => {
    for (const message of ["what's the weather like", "do you sell cars", "banana", "asdf qwer"]) {
      const match = findBestFaq(DENTAL_FAQ, message);
      expect(match === null || match.confidence < 0.35).toBe(true);
    }
  });

  test("a long message matching one incidental word is not a confident answer", () => {
    const match = findBestFaq(
      configForSector("real-estate").faq,
      "I am looking for a 2 bedroom flat in Richmond near the river",
    );
    expect(match === null || match.confidence < 0.35).toBe(true);
  });

  test("a message of only filler words finds nothing", () => {
    expect(searchFaq(DENTAL_FAQ, "what do you have for me?")).toEqual([]);
    expect(searchFaq([], "hours")).toEqual([]);
  });

  test("results are ordered by confidence and every confidence is within 0 and 1", () => {
    const matches = searchFaq(DENTAL_FAQ, "teeth whitening price", 3);
    expect(matches[0]?.entry.id).toBe("whitening");
    for (let index = 0; index < matches.length; index += 1) {
      const confidence = matches[index]?.confidence ?? -1;
      expect(confidence).toBeGreaterThanOrEqual(0);
      expect(confidence).toBeLessThanOrEqual(1);
      if (index > 0) expect(confidence).toBeLessThanOrEqual(matches[index - 1]?.confidence ?? 0);
    }
  });

  test("an edited FAQ is searched afresh and an equal copy reuses the same answers", () => {
    const edited = structuredClone(DENTAL_FAQ);
    edited[0] = { id: "hours", question: "When can I bring my dog?", answer: "Dogs are welcome on Fridays." };
    expect(findBestFaq(edited, "can I bring my dog")?.entry.answer).toBe("Dogs are welcome on Fridays.");
    expect(findBestFaq(DENTAL_FAQ, "can I bring my dog")?.entry.answer).not.toBe("Dogs are welcome on Fridays.");

    const copy = structuredClone(DENTAL_FAQ);
    const fromCopy = findBestFaq(copy, "is there parking");
    expect(fromCopy?.entry).toBe(copy[4]!);
    expect(fromCopy?.confidence).toBe(findBestFaq(DENTAL_FAQ, "is there parking")?.confidence ?? -1);
  });
});
