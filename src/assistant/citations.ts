import type { Source } from "../chat/turn-assistant.ts";
import type { KnowledgeHit } from "../knowledge/search.ts";

export type { Source };

/**
 * The model cites the KNOWLEDGE passages it used as [1], [2] (or [1, 3]). The markers are
 * Parley's bookkeeping, not the visitor's reading: they are taken out of the visible text —
 * also while it streams, by holding back a possible marker until it is complete — and the
 * cited numbers become the reply's `sources`.
 */

const MARKER = /[ \t]*\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g;
/** A tail that may still grow into a marker: spaces, or "[" with digits and commas so far. */
const OPEN_TAIL = /[ \t]*(?:\[[\d,\s]*)?$/;

export interface CitationFilter {
  /** Feeds raw model text; visible text is passed on as soon as it cannot be part of a marker. */
  push(piece: string): void;
  /** End of the model's text: what is held back is passed on, an unfinished marker dropped. */
  flush(): void;
  readonly cited: ReadonlySet<number>;
}

export function createCitationFilter(onVisible: (piece: string) => void): CitationFilter {
  let pending = "";
  const cited = new Set<number>();
  const strip = (text: string): string =>
    text.replace(MARKER, (_, numbers: string) => {
      for (const number of numbers.split(",")) cited.add(Number(number.trim()));
      return "";
    });
  return {
    cited,
    push(piece) {
      pending = strip(pending + piece);
      const tail = pending.match(OPEN_TAIL)?.[0] ?? "";
      const ready = pending.slice(0, pending.length - tail.length);
      pending = tail;
      if (ready) onVisible(ready);
    },
    flush() {
      const rest = pending.replace(OPEN_TAIL, "");
      pending = "";
      if (rest) onVisible(rest);
    },
  };
}

/** The documents of the cited passages, in the order first cited; a number with no passage is ignored. */
export function citedSources(hits: readonly KnowledgeHit[], cited: ReadonlySet<number>): Source[] {
  const seen = new Set<string>();
  const sources: Source[] = [];
  for (const number of cited) {
    const hit = hits[number - 1];
    if (!hit || seen.has(hit.document_id)) continue;
    seen.add(hit.document_id);
    // Only a web address is a link the widget may show; any other scheme (javascript:, data:) is dropped.
    sources.push(
      hit.url && /^https?:\/\//i.test(hit.url)
        ? { document_id: hit.document_id, title: hit.title, url: hit.url }
        : { document_id: hit.document_id, title: hit.title },
    );
  }
  return sources;
}
