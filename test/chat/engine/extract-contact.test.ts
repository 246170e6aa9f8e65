import { describe, expect, test } from "bun:test";
import { extractContact } from "../../../src/chat/engine/extract-contact.ts";

const US = { defaultCountry: "US" };

describe("extractContact: names", () => {
  test("an explicit 'my name is' is taken in any case and capitalised", () => {
    expect(extractContact("my name is ana lopez", US).name).toEqual({ value: "Ana Lopez", confidence: 0.95 });
    expect(extractContact("Hi, my name is Ana and my number is 415 555 0132", US).name?.value).toBe("Ana");
  });

  test("'I'm' and 'this is' introduce a capitalised name", () => {
    expect(extractContact("I'm Ana", US).name).toEqual({ value: "Ana", confidence: 0.8 });
    expect(extractContact("Hello, this is Ana Lopez.", US).name?.value).toBe("Ana Lopez");
  });

  test("'I'm' followed by an ordinary word is not a name", () => {
    expect(extractContact("I'm interested in implants", US).name).toBeNull();
    expect(extractContact("I'm Looking for a quote", US).name).toBeNull();
    expect(extractContact("this is urgent", US).name).toBeNull();
  });

  test("a bare answer counts as a name only when the bot asked for one", () => {
    expect(extractContact("Ana Lopez", { ...US, expecting: "name" }).name).toEqual({
      value: "Ana Lopez",
      confidence: 0.9,
    });
    expect(extractContact("it's ana", { ...US, expecting: "name" }).name?.value).toBe("Ana");
    expect(extractContact("Ana Lopez", US).name).toBeNull();
    expect(extractContact("Ana Lopez", { ...US, expecting: "phone" }).name).toBeNull();
  });

  test("yes, no and questions are not names even when one was asked for", () => {
    for (const message of ["sure", "no thanks", "ok", "why do you need it?", "tomorrow", "Ana tomorrow"]) {
      expect(extractContact(message, { ...US, expecting: "name" }).name).toBeNull();
    }
  });

  test("names keep their own capitals, apostrophes and hyphens", () => {
    expect(extractContact("Mary-Ann O'Neil", { ...US, expecting: "name" }).name?.value).toBe("Mary-Ann O'Neil");
    expect(extractContact("my name is jean-luc mcDonald", US).name?.value).toBe("jean-luc mcDonald");
  });
});

describe("extractContact: phones", () => {
  test("a valid local number becomes E.164 for the default country", () => {
    expect(extractContact("call me on (415) 555-0132", US).phone).toBe("+14155550132");
    expect(extractContact("4155550132", US).phone).toBe("+14155550132");
    expect(extractContact("my mobile is 07911 123456", { defaultCountry: "GB" }).phone).toBe("+447911123456");
    expect(extractContact("0412 345 678", { defaultCountry: "AU" }).phone).toBe("+61412345678");
  });

  test("an international number keeps its own country whatever the default", () => {
    expect(extractContact("reach me at +44 20 7946 0958", US).phone).toBe("+442079460958");
  });

  test("a well-formed number that no carrier uses is reported as invalid", () => {
    const findings = extractContact("555-123-4567", US);
    expect(findings.phone).toBeNull();
    expect(findings.invalid).toEqual([{ field: "phone", text: "555-123-4567", problem: "invalid" }]);
  });

  test("a number with digits missing is reported as too short", () => {
    expect(extractContact("415-555-013", US).invalid).toEqual([
      { field: "phone", text: "415-555-013", problem: "too_short" },
    ]);
  });

  test("a few digits only count as a phone attempt when a phone was asked for", () => {
    expect(extractContact("12345", US).invalid).toEqual([]);
    expect(extractContact("12345", { ...US, expecting: "phone" }).invalid[0]?.problem).toBe("too_short");
  });

  test("prices, times and dates are not phone numbers", () => {
    for (const message of ["is it $120?", "tomorrow at 10:30", "on 2026-01-20 please", "on 20/01/2026"]) {
      const findings = extractContact(message, US);
      expect(findings.phone).toBeNull();
      expect(findings.invalid).toEqual([]);
    }
  });
});

describe("extractContact: e-mails", () => {
  test("a valid address is found anywhere and lower-cased", () => {
    expect(extractContact("write to Ana.Lopez@Example.com please", US).email).toBe("ana.lopez@example.com");
    expect(extractContact("(ana+dental@mail.example.co.uk)", US).email).toBe("ana+dental@mail.example.co.uk");
  });

  test("an address without a domain or with a broken one is reported", () => {
    expect(extractContact("ana@example", US).invalid).toEqual([
      { field: "email", text: "ana@example", problem: "missing_domain" },
    ]);
    expect(extractContact("ana@example..com", US).invalid[0]?.problem).toBe("invalid");
    expect(extractContact("ana@@example.com", US).invalid[0]?.field).toBe("email");
  });

  test("an address typed without the @ is reported only when one was asked for", () => {
    expect(extractContact("ana.example.com", { ...US, expecting: "email" }).invalid).toEqual([
      { field: "email", text: "ana.example.com", problem: "missing_at" },
    ]);
    expect(extractContact("ana at example dot com", { ...US, expecting: "email" }).invalid[0]?.problem).toBe(
      "missing_at",
    );
    expect(extractContact("see example.com", US).invalid).toEqual([]);
  });
});

describe("extractContact: several details at once", () => {
  test("name, phone and e-mail in one sentence are all picked up", () => {
    const findings = extractContact("I'm Ana Lopez, 415-555-0132, ana@example.com", US);
    expect(findings.name?.value).toBe("Ana Lopez");
    expect(findings.phone).toBe("+14155550132");
    expect(findings.email).toBe("ana@example.com");
    expect(findings.invalid).toEqual([]);
  });

  test("a bare name beside a phone number is taken as the name", () => {
    const findings = extractContact("Ana Lopez 415 555 0132", US);
    expect(findings.name?.value).toBe("Ana Lopez");
    expect(findings.phone).toBe("+14155550132");
  });

  test("digits inside an e-mail address are not read as a phone number", () => {
    const findings = extractContact("ana1985123@example.com", US);
    expect(findings.email).toBe("ana1985123@example.com");
    expect(findings.invalid).toEqual([]);
  });

  test("a valid e-mail and an invalid phone are reported separately", () => {
    const findings = extractContact("ana@example.com and 555-123-4567", US);
    expect(findings.email).toBe("ana@example.com");
    expect(findings.phone).toBeNull();
    expect(findings.invalid.map((attempt) => attempt.field)).toEqual(["phone"]);
  });
});
