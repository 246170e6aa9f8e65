import { describe, expect, test } from "bun:test";
import { jsonDepth, JsonTooDeepError, MAX_JSON_DEPTH, parseJsonText } from "../../src/lib/safe-json.ts";

describe("jsonDepth", () => {
  test("counts the deepest nesting of arrays and objects together", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth("[]")).toBe(1);
    expect(jsonDepth('{"a":[{"b":[1]}],"c":{}}')).toBe(4);
    expect(jsonDepth("[[],[[]],[]]")).toBe(3);
  });

  test("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('["\\"[[[", "\\\\"]')).toBe(1);
    expect(jsonDepth('["\\\\", [[1]]]')).toBe(3);
  });

  test("stops one past the limit instead of reading on", () => {
    expect(jsonDepth("[".repeat(100_000), 32)).toBe(33);
  });
});

describe("parseJsonText", () => {
  test("parses text at the limit", () => {
    const text = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(parseJsonText(text)).toBeArray();
  });

  test("refuses text one level past the limit with a SyntaxError of its own", () => {
    const text = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJsonText(text)).toThrow(JsonTooDeepError);
    expect(() => parseJsonText(text)).toThrow(SyntaxError);
  });

  test("still throws JSON.parse's error for text that is not JSON", () => {
    expect(() => parseJsonText('{"a":')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a":')).not.toThrow(JsonTooDeepError);
  });
});
