import { describe, expect, test } from "bun:test";
import {
  jsonShape,
  JsonTooComplexError,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  parseJsonText,
} from "../../src/lib/safe-json.ts";

describe("jsonShape", () => {
  test("counts the deepest nesting and the number of arrays and objects together", () => {
    expect(jsonShape("1")).toEqual({ depth: 0, containers: 0 });
    expect(jsonShape("[]")).toEqual({ depth: 1, containers: 1 });
    expect(jsonShape('{"a":[{"b":[1]}],"c":{}}')).toEqual({ depth: 4, containers: 5 });
    expect(jsonShape("[[],[[]],[]]")).toEqual({ depth: 3, containers: 5 });
  });

  test("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonShape('{"a":"[[[{{{"}').depth).toBe(1);
    expect(jsonShape('["\\"[[[", "\\\\"]').depth).toBe(1);
    expect(jsonShape('["\\\\", [[1]]]').depth).toBe(3);
  });

  test("stops one past a limit instead of reading on", () => {
    expect(jsonShape("[".repeat(100_000), { depth: 32 }).depth).toBe(33);
    expect(jsonShape("[],".repeat(100_000), { containers: 10 }).containers).toBe(11);
  });
});

describe("parseJsonText", () => {
  test("parses text at the limits", () => {
    expect(parseJsonText(`${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`)).toBeArray();
    expect(
      parseJsonText(
        `[${Array(MAX_JSON_CONTAINERS - 1)
          .fill("{}")
          .join(",")}]`,
      ),
    ).toHaveLength(MAX_JSON_CONTAINERS - 1);
  });

  test("refuses text one level too deep, or with one container too many, with a SyntaxError of its own", () => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJsonText(deep)).toThrow(JsonTooComplexError);
    expect(() => parseJsonText(deep)).toThrow(SyntaxError);
    expect(() => parseJsonText(deep)).toThrow(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => parseJsonText(`[${Array(MAX_JSON_CONTAINERS).fill("{}").join(",")}]`)).toThrow(
      `more than ${MAX_JSON_CONTAINERS} arrays and objects`,
    );
  });

  test("still throws JSON.parse's error for text that is not JSON", () => {
    expect(() => parseJsonText('{"a":')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a":')).not.toThrow(JsonTooComplexError);
  });
});
