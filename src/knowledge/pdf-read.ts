/**
 * A PDF's text with unpdf's build of Mozilla's PDF.js (it runs without a browser or a worker of
 * its own, so it compiles into the binary; its `unpdf/pdfjs` entry is used directly, as the
 * package's main entry calls `import.meta.resolve`, which the binary's bytecode build cannot
 * hold). This runs on the PDF thread (pdf-worker.ts), never on the server's thread: PDF.js parses
 * a page in one long chain of microtasks that no HTTP request can interleave with.
 */

export const MAX_PDF_PAGES = 300;

export interface PdfText {
  title: string | null;
  /** One `## Page N` section per page with text, so every passage names its page. */
  text: string;
  pages: number;
}

type TextItem = { str?: string; hasEOL?: boolean };

const pageText = (items: readonly TextItem[]): string =>
  items
    .map((item) => (item.str ?? "") + (item.hasEOL ? "\n" : ""))
    .join("")
    .replace(/[ \t]+\n/g, "\n")
    .trim();

/** Throws with the reason a file cannot be read, in words for the owner (the caller makes it a 422). */
export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const { getDocument } = await import("unpdf/pdfjs");
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  try {
    if (pdf.numPages > MAX_PDF_PAGES)
      throw new Error(`it has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are read. Split it into smaller files.`);
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const sections: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const text = pageText((await page.getTextContent()).items as TextItem[]);
      page.cleanup();
      if (text !== "") sections.push(`## Page ${number}\n\n${text}`);
    }
    const title = typeof info?.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : null;
    return { title, text: sections.join("\n\n"), pages: pdf.numPages };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}
