import { Parser } from "htmlparser2";
import { AppError } from "../lib/app-error.ts";

/**
 * HTML to the Markdown-like text the chunker reads, with htmlparser2 (a real, error-tolerant
 * HTML tokenizer that decodes entities): `<h1>`–`<h6>` become `#` headings, block elements
 * become paragraph breaks, list items become `- ` lines, and what a reader never sees
 * (scripts, styles, templates, inline SVG, navigation menus) is dropped.
 */

export interface HtmlText {
  /** The page's `<title>`, or null when it has none. */
  title: string | null;
  text: string;
}

const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "object",
  "canvas",
  "nav",
  "head",
  "select",
  "button",
]);
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "blockquote",
  "pre",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "address",
  "details",
  "summary",
  "hr",
]);
const HEADING = /^h([1-6])$/;

/**
 * Real pages nest a few dozen elements deep. The tokenizer keeps open elements in an array it
 * shifts and searches on every tag, so a 2 MB page of `<b><b><b>…</i></i>` would cost it
 * minutes of the one JavaScript thread: past this depth the page is refused instead.
 */
export const MAX_HTML_NESTING = 256;

const tooDeep = () =>
  new AppError(
    "document_too_deep",
    422,
    `The page nests elements more than ${MAX_HTML_NESTING} levels deep; import a simpler page or paste its text.`,
  );

export function htmlToText(html: string): HtmlText {
  const out: string[] = [];
  let skipDepth = 0;
  let inTitle = false;
  let title = "";
  let preDepth = 0;
  let openElements = 0;
  // The line being built, with what is known of it: testing a long built-up string itself would
  // flatten it on every table cell or text piece, quadratic in a row of 100,000 cells.
  let line = "";
  let lineHasText = false;
  let lineEndsInSpace = false;

  const setLine = (text: string) => {
    line = text;
    lineHasText = /\S/.test(text);
    lineEndsInSpace = text.endsWith(" ");
  };
  const appendToLine = (text: string) => {
    if (text === "") return;
    line += text;
    lineHasText ||= /\S/.test(text);
    lineEndsInSpace = text.endsWith(" ");
  };
  const endLine = () => {
    const trimmed = line.trim();
    if (trimmed !== "") out.push(trimmed);
    setLine("");
  };
  const endBlock = () => {
    endLine();
    if (out.length > 0 && out.at(-1) !== "") out.push("");
  };

  const parser = new Parser(
    {
      onopentag(name) {
        // Every open is matched by exactly one close, implied ones included: this is the tokenizer's stack depth.
        if (++openElements > MAX_HTML_NESTING) throw tooDeep();
        if (name === "title") inTitle = true;
        if (SKIPPED.has(name) || skipDepth > 0) {
          if (SKIPPED.has(name)) skipDepth++;
          return;
        }
        const heading = HEADING.exec(name);
        if (heading) {
          endBlock();
          setLine(`${"#".repeat(Number(heading[1]))} `);
        } else if (name === "li") {
          endLine();
          setLine("- ");
        } else if (name === "br") {
          endLine();
        } else if (name === "td" || name === "th") {
          if (lineHasText) appendToLine(" | ");
        } else if (BLOCKS.has(name)) {
          endBlock();
        }
        if (name === "pre") preDepth++;
      },
      ontext(data) {
        if (inTitle) title += data;
        if (skipDepth > 0) return;
        if (preDepth > 0) {
          const [first = "", ...rest] = data.split("\n");
          appendToLine(first);
          for (const next of rest) {
            endLine();
            setLine(next);
          }
          return;
        }
        const collapsed = data.replace(/\s+/g, " ");
        appendToLine(line === "" || lineEndsInSpace ? collapsed.trimStart() : collapsed);
      },
      onclosetag(name) {
        openElements--;
        if (name === "title") inTitle = false;
        if (SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        if (HEADING.test(name)) {
          // A heading whose text was only markup ("<h2><img></h2>") would be a bare "## ".
          if (/^#+ $/.test(line)) setLine("");
          endBlock();
        } else if (name === "li") endLine();
        else if (BLOCKS.has(name)) endBlock();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endLine();
  const text = out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const cleanTitle = title.replace(/\s+/g, " ").trim();
  return { title: cleanTitle === "" ? null : cleanTitle, text };
}
