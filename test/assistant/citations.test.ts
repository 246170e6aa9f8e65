import { describe, expect, test } from "bun:test";
import { citedSources, createCitationFilter } from "../../src/assistant/citations.ts";
import type { KnowledgeHit } from "../../src/knowledge/search.ts";

function run(pieces: string[]): { visible: string[]; cited: number[] } {
  const visible: string[] = [];
  const filter = createCitationFilter((piece) => visible.push(piece));
  for (const piece of pieces) filter.push(piece);
  filter.flush();
  return { visible, cited: [...filter.cited] };
}

const hit = (document_id: string, url: string | null): KnowledgeHit => ({
  chunk_id: `${document_id}:0`,
  document_id,
  title: document_id.toUpperCase(),
  url,
  text: "",
  score: 1,
});

describe("citation markers", () => {
  test("markers split across streamed pieces are removed with the space before them, and their numbers kept", () => {
    const { visible, cited } = run(["A cleaning costs 95 dollars ", "[", "2", "]. Cards are fine [1,", " 3][4]", "."]);
    expect(visible.join("")).toBe("A cleaning costs 95 dollars. Cards are fine.");
    expect(cited).toEqual([2, 1, 3, 4]);
  });

  test("brackets that are not markers stay; an unfinished marker at the end is dropped", () => {
    const { visible } = run(["Bring [your card] and ", "ID", " [see below", " [1"]);
    expect(visible.join("")).toBe("Bring [your card] and ID [see below");
  });

  test("sources are the cited passages' documents, in citation order, once each, with http(s) URLs only", () => {
    const hits = [
      hit("doc_a", "https://a.example"),
      hit("doc_b", "javascript:alert(1)"),
      hit("doc_a", "https://a.example"),
    ];
    expect(citedSources(hits, new Set([2, 3, 1, 7]))).toEqual([
      { document_id: "doc_b", title: "DOC_B" },
      { document_id: "doc_a", title: "DOC_A", url: "https://a.example" },
    ]);
    expect(citedSources(hits, new Set())).toEqual([]);
  });
});
