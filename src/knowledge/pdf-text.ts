import { AppError } from "../lib/app-error.ts";

/**
 * A PDF's text with unpdf's build of Mozilla's PDF.js (it runs without a browser or a worker, so
 * it compiles into the binary; its `unpdf/pdfjs` entry is used directly, as the package's main
 * entry calls `import.meta.resolve`, which the binary's bytecode build cannot hold). PDF.js runs on the one JavaScript thread, so a file is bounded
 * before and while it is read: its size, its pages, and a deadline checked between pages.
 * Anything PDF.js cannot read (not a PDF, broken, encrypted) is a 422, never a 500.
 */

export const MAX_PDF_BYTES = 10 * 1024 * 1024;
export const MAX_PDF_PAGES = 300;
export const PDF_TIMEOUT_MS = 20_000;

export interface PdfText {
  title: string | null;
  /** One `## Page N` section per page with text, so every passage names its page. */
  text: string;
  pages: number;
}

const unreadable = (reason: string) => new AppError("pdf_unreadable", 422, `The PDF cannot be read: ${reason}`);

type TextItem = { str?: string; hasEOL?: boolean };

const pageText = (items: readonly TextItem[]): string =>
  items
    .map((item) => (item.str ?? "") + (item.hasEOL ? "\n" : ""))
    .join("")
    .replace(/[ \t]+\n/g, "\n")
    .trim();

export async function pdfToText(bytes: Uint8Array, options: { timeoutMs?: number } = {}): Promise<PdfText> {
  if (bytes.byteLength > MAX_PDF_BYTES)
    throw new AppError("document_too_large", 413, `The PDF is larger than ${MAX_PDF_BYTES / 1024 / 1024} MB.`);
  if (Buffer.from(bytes.subarray(0, 1024)).indexOf("%PDF-") < 0)
    throw unreadable("it does not start like a PDF (%PDF-).");
  // Loaded on the first PDF, not at start-up: PDF.js is about 2 MB of code most servers never run.
  const { getDocument } = await import("unpdf/pdfjs");
  let expired = false;
  const timer = setTimeout(() => (expired = true), options.timeoutMs ?? PDF_TIMEOUT_MS);
  // PDF.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise.catch((error: unknown) => {
    clearTimeout(timer);
    throw unreadable(error instanceof Error ? error.message : String(error));
  });
  try {
    if (pdf.numPages > MAX_PDF_PAGES)
      throw unreadable(`it has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are read. Split it into smaller files.`);
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const sections: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      if (expired) throw unreadable(`reading it took longer than ${(options.timeoutMs ?? PDF_TIMEOUT_MS) / 1000} s.`);
      const page = await pdf.getPage(number);
      const text = pageText((await page.getTextContent()).items as TextItem[]);
      page.cleanup();
      if (text !== "") sections.push(`## Page ${number}\n\n${text}`);
    }
    const title = typeof info?.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : null;
    return { title, text: sections.join("\n\n"), pages: pdf.numPages };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}
