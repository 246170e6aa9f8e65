/**
 * Cuts a document into the chunks search ranks. Markdown headings (ATX `#` and setext
 * underlines) open sections and every chunk remembers the heading path it sits under
 * ("Prices › Cleaning"); inside a section, paragraphs (blank-line separated blocks) are packed
 * into chunks of at most CHUNK_MAX_CHARS, and a paragraph longer than that is cut at sentence
 * ends, then at word boundaries. Chunks never span two sections, so a heading's chunk answers
 * that heading's question and nothing else. Plain text has no headings: paragraphs only.
 */

export interface TextChunk {
  heading: string;
  text: string;
}

/** Big enough for a paragraph or a short list, small enough that a few fit in a prompt. */
export const CHUNK_TARGET_CHARS = 700;
export const CHUNK_MAX_CHARS = 1200;
export const HEADING_SEPARATOR = " › ";

interface Section {
  headings: string[];
  lines: string[];
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

function splitSections(text: string, withHeadings: boolean): Section[] {
  const sections: Section[] = [];
  const stack: string[] = [];
  let current: Section = { headings: [], lines: [] };
  let inFence = false;
  const open = (level: number, title: string) => {
    sections.push(current);
    stack.length = Math.min(stack.length, level - 1);
    while (stack.length < level - 1) stack.push("");
    stack.push(title);
    current = { headings: stack.filter((heading) => heading !== ""), lines: [] };
  };
  for (const line of text.split("\n")) {
    if (withHeadings && FENCE.test(line)) inFence = !inFence;
    const atx = withHeadings && !inFence ? ATX_HEADING.exec(line) : null;
    if (atx) {
      open(atx[1]?.length ?? 1, (atx[2] ?? "").trim());
      continue;
    }
    const previous = current.lines.at(-1);
    const setext = withHeadings && !inFence ? SETEXT_UNDERLINE.exec(line) : null;
    // "Title\n=====" is a heading; "---" under a blank line is a rule, dropped below.
    if (setext && previous !== undefined && previous.trim() !== "") {
      current.lines.pop();
      open(setext[1]?.startsWith("=") ? 1 : 2, previous.trim());
      continue;
    }
    if (setext) continue;
    current.lines.push(line);
  }
  sections.push(current);
  return sections;
}

function paragraphsOf(lines: string[]): string[] {
  return lines
    .join("\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/[ \t]+\n/g, "\n").trim())
    .filter((paragraph) => paragraph !== "");
}

/** Cuts an over-long paragraph at sentence ends, then (for a sentence too long) at spaces. */
function splitLongParagraph(paragraph: string): string[] {
  const sentences = paragraph.match(/[^.!?\n]+(?:[.!?]+|\n|$)\s*/g) ?? [paragraph];
  const pieces: string[] = [];
  let piece = "";
  const flush = () => {
    if (piece.trim() !== "") pieces.push(piece.trim());
    piece = "";
  };
  for (const sentence of sentences) {
    if (piece.length + sentence.length > CHUNK_MAX_CHARS) flush();
    if (sentence.length <= CHUNK_MAX_CHARS) {
      piece += sentence;
      continue;
    }
    for (const word of sentence.split(/\s+/)) {
      if (piece.length + word.length + 1 > CHUNK_MAX_CHARS) flush();
      piece += (piece === "" ? "" : " ") + word.slice(0, CHUNK_MAX_CHARS);
    }
  }
  flush();
  return pieces;
}

/** Packs paragraphs into chunks: a chunk closes when the next paragraph would pass the target. */
function packParagraphs(paragraphs: string[]): string[] {
  const chunks: string[] = [];
  let chunk = "";
  for (const paragraph of paragraphs.flatMap((entry) =>
    entry.length > CHUNK_MAX_CHARS ? splitLongParagraph(entry) : [entry],
  )) {
    if (chunk !== "" && chunk.length + paragraph.length + 2 > CHUNK_TARGET_CHARS) {
      chunks.push(chunk);
      chunk = "";
    }
    chunk = chunk === "" ? paragraph : `${chunk}\n\n${paragraph}`;
  }
  if (chunk !== "") chunks.push(chunk);
  return chunks;
}

/** The chunks of a text; `markdown: true` lets headings open sections (HTML arrives converted to it). */
export function chunkText(text: string, options: { markdown: boolean }): TextChunk[] {
  const normalized = text.replace(/\r\n?/g, "\n");
  const chunks: TextChunk[] = [];
  for (const section of splitSections(normalized, options.markdown)) {
    const heading = section.headings.join(HEADING_SEPARATOR);
    const paragraphs = paragraphsOf(section.lines);
    // A heading with no text of its own (only sub-headings) yields no chunk: its
    // sub-sections carry it in their heading path.
    for (const piece of packParagraphs(paragraphs)) chunks.push({ heading, text: piece });
  }
  return chunks;
}
