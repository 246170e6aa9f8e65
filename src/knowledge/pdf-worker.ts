import { readPdf, type PdfText } from "./pdf-read.ts";

/**
 * The PDF thread (src/knowledge/pdf-text.ts starts one per file): PDF.js reads the file here, on
 * the other core, and the server's thread goes on answering chat while it does. One message in
 * (the file's bytes, transferred), one answer out: the text, or why the file cannot be read.
 */
declare const self: Worker;

export type PdfAnswer = { ok: true; pdf: PdfText } | { ok: false; reason: string };

self.onmessage = (event: MessageEvent<Uint8Array>) => {
  void readPdf(event.data).then(
    (pdf) => self.postMessage({ ok: true, pdf } satisfies PdfAnswer),
    (error: unknown) =>
      self.postMessage({
        ok: false,
        reason: error instanceof Error ? error.message : String(error),
      } satisfies PdfAnswer),
  );
};
