import { describe, expect, test } from "bun:test";
import { rememberLast } from "../../src/lib/remember-last.ts";

describe("rememberLast", () => {
  test("answers as compute does, computing once for the same text asked again", () => {
    const asked: string[] = [];
    const length = rememberLast((text) => {
      asked.push(text);
      return text.length;
    });
    expect([length("abc"), length("abc"), length(""), length(""), length("abc"), length("de")]).toEqual([
      3, 3, 0, 0, 3, 2,
    ]);
    expect(asked).toEqual(["abc", "", "abc", "de"]);
  });
});
