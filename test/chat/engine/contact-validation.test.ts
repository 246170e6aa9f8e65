import { describe, expect, test } from "bun:test";
import { normalizeEmailAddress, normalizePhoneNumber } from "../../../src/chat/engine/contact-validation.ts";
import { extractContact } from "../../../src/chat/engine/extract-contact.ts";

describe("normalizeEmailAddress", () => {
  test("lower-cases a valid address with a real TLD", () => {
    expect(normalizeEmailAddress(" Tom.Baker@Gmail.com ")).toBe("tom.baker@gmail.com");
    expect(normalizeEmailAddress("ana@clinic.dental")).toBe("ana@clinic.dental");
    expect(normalizeEmailAddress("ana@example.co.uk")).toBe("ana@example.co.uk");
  });

  test("rejects a TLD that is not in the IANA list", () => {
    expect(normalizeEmailAddress("tom.baker@gmail.con")).toBeNull();
    expect(normalizeEmailAddress("ana@example.comm")).toBeNull();
  });

  test("rejects malformed addresses", () => {
    expect(normalizeEmailAddress("ana@example")).toBeNull();
    expect(normalizeEmailAddress("ana@example..com")).toBeNull();
    expect(normalizeEmailAddress("ana.example.com")).toBeNull();
    expect(normalizeEmailAddress("")).toBeNull();
  });
});

describe("normalizePhoneNumber", () => {
  test("returns E.164 using the tenant's default country", () => {
    expect(normalizePhoneNumber("(415) 555-0132", "US")).toBe("+14155550132");
    expect(normalizePhoneNumber("020 7946 0018", "GB")).toBe("+442079460018");
    expect(normalizePhoneNumber("+44 20 7946 0018", "US")).toBe("+442079460018");
  });

  test("rejects numbers nobody can dial", () => {
    expect(normalizePhoneNumber("12345", "US")).toBeNull();
    expect(normalizePhoneNumber("call me", "US")).toBeNull();
  });
});

test("extractContact reports an unknown TLD instead of accepting the address", () => {
  const findings = extractContact("oops tom.baker@gmail.con", { defaultCountry: "US" });
  expect(findings.email).toBeNull();
  expect(findings.invalid).toEqual([{ field: "email", text: "tom.baker@gmail.con", problem: "unknown_tld" }]);
});
