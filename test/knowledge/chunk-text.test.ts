import { describe, expect, test } from "bun:test";
import { CHUNK_MAX_CHARS, CHUNK_TARGET_CHARS, chunkText } from "../../src/knowledge/chunk-text.ts";

describe("chunkText", () => {
  test("markdown headings open sections and each chunk carries its heading path", () => {
    const chunks = chunkText(
      "# Prices\nIntro to prices.\n\n## Cleaning\nA cleaning costs 60 EUR.\n\n## Whitening\nWhitening is 250 EUR.\n\n# Parking\nFree parking behind the building.",
      { markdown: true },
    );
    expect(chunks).toEqual([
      { heading: "Prices", text: "Intro to prices." },
      { heading: "Prices › Cleaning", text: "A cleaning costs 60 EUR." },
      { heading: "Prices › Whitening", text: "Whitening is 250 EUR." },
      { heading: "Parking", text: "Free parking behind the building." },
    ]);
  });

  test("setext headings count as headings and a heading without text of its own yields no chunk", () => {
    const chunks = chunkText("Opening hours\n=============\n\nWeekdays\n--------\nMonday to Friday 9 to 17.", {
      markdown: true,
    });
    expect(chunks).toEqual([{ heading: "Opening hours › Weekdays", text: "Monday to Friday 9 to 17." }]);
  });

  test("a # inside a code fence is not a heading", () => {
    const chunks = chunkText("# Setup\n```\n# not a heading\n```\nDone.", { markdown: true });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.heading).toBe("Setup");
    expect(chunks[0]?.text).toContain("# not a heading");
  });

  test("plain text keeps # lines as text and splits along blank lines only when the target is passed", () => {
    const chunks = chunkText("# hashtag\n\nshort paragraph", { markdown: false });
    expect(chunks).toEqual([{ heading: "", text: "# hashtag\n\nshort paragraph" }]);
  });

  test("paragraphs are packed up to the target size and never cut in the middle", () => {
    const paragraph = (n: number) => `Paragraph ${n} ${"word ".repeat(50).trim()}.`;
    const text = Array.from({ length: 12 }, (_, n) => paragraph(n)).join("\n\n");
    const chunks = chunkText(text, { markdown: true });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS + paragraph(10).length);
      for (const piece of chunk.text.split("\n\n")) expect(piece).toMatch(/^Paragraph \d+ (word ){49}word\.$/);
    }
    expect(chunks.map((chunk) => chunk.text).join("\n\n")).toBe(text);
  });

  test("an over-long paragraph is cut at sentence ends, then at spaces, within the maximum", () => {
    const sentences = Array.from({ length: 60 }, (_, n) => `Sentence number ${n} says something useful.`).join(" ");
    const oneHugeWordRun = "lorem ".repeat(600).trim();
    const chunks = chunkText(`${sentences}\n\n${oneHugeWordRun}`, { markdown: false });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
    const sentenceChunks = chunks.filter((chunk) => chunk.text.startsWith("Sentence"));
    for (const chunk of sentenceChunks) expect(chunk.text.endsWith(".")).toBe(true);
  });

  test("empty or whitespace-only input gives no chunk", () => {
    expect(chunkText(" \n\n \t", { markdown: true })).toEqual([]);
    expect(chunkText("# Only a heading", { markdown: true })).toEqual([]);
  });
});
