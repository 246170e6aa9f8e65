import { Parser } from "htmlparser2";

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

const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "nav", "head", "select", "button"]);
const BLOCKS = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "aside", "blockquote", "pre", "table", "thead", "tbody",
  "tfoot", "tr", "ul", "ol", "dl", "dt", "dd", "figure", "figcaption", "form", "fieldset", "address", "details", "summary", "hr",
]);
const HEADING = /^h([1-6])$/;

export function htmlToText(html: string): HtmlText {
  const out: string[] = [];
  let skipDepth = 0;
  let inTitle = false;
  let title = "";
  let preDepth = 0;
  let line = "";

  const endLine = () => {
    const trimmed = line.trim();
    if (trimmed !== "") out.push(trimmed);
    line = "";
  };
  const endBlock = () => {
    endLine();
    if (out.length > 0 && out.at(-1) !== "") out.push("");
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "title") inTitle = true;
        if (SKIPPED.has(name) || skipDepth > 0) {
          if (SKIPPED.has(name)) skipDepth++;
          return;
        }
        const heading = HEADING.exec(name);
        if (heading) {
          endBlock();
          line = `${"#".repeat(Number(heading[1]))} `;
        } else if (name === "li") {
          endLine();
          line = "- ";
        } else if (name === "br") {
          endLine();
        } else if (name === "td" || name === "th") {
          line += line.trim() === "" ? "" : " | ";
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
          line += first;
          for (const next of rest) {
            endLine();
            line = next;
          }
          return;
        }
        const collapsed = data.replace(/\s+/g, " ");
        line += line === "" || line.endsWith(" ") ? collapsed.trimStart() : collapsed;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        if (HEADING.test(name)) {
          // A heading whose text was only markup ("<h2><img></h2>") would be a bare "## ".
          if (/^#+ $/.test(line)) line = "";
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
  const text = out.join("\n").replace(/\n{3,}/g, "\n\n").trim();
  const cleanTitle = title.replace(/\s+/g, " ").trim();
  return { title: cleanTitle === "" ? null : cleanTitle, text };
}
