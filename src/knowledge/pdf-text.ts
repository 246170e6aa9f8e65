import { AppError } from "../lib/app-error.ts";
import { workerEntry } from "../lib/worker-entry.ts";
import type { PdfText } from "./pdf-read.ts";
import type { PdfAnswer } from "./pdf-worker.ts";

export { MAX_PDF_PAGES, type PdfText } from "./pdf-read.ts";

/**
 * A PDF's text, read on a thread of its own (pdf-worker.ts): PDF.js holds the thread it runs on
 * for as long as a page takes, which on the server's thread would stop every tenant's chat.
 * Files are read one at a time (PDF_THREADS), so two uploads never take both cores from the
 * server; a few more wait their turn (PDF_QUEUE) and past those an upload is told to come back
 * (503 pdf_busy with Retry-After). A thread that runs past the deadline is terminated, not
 * merely no longer waited for. Anything PDF.js cannot read (not a PDF, broken, encrypted, too
 * slow) is a 422, never a 500.
 */

export const MAX_PDF_BYTES = 10 * 1024 * 1024;
export const PDF_TIMEOUT_MS = 20_000;
export const PDF_THREADS = 1;
export const PDF_QUEUE = 4;
const PDF_BUSY_RETRY_AFTER_S = 5;

export interface PdfReaderOptions {
  timeoutMs?: number;
  threads?: number;
  queue?: number;
}

export interface PdfReader {
  read(bytes: Uint8Array): Promise<PdfText>;
  /** Files being read, files waiting, and PDF threads not yet ended (tests, diagnostics). */
  load(): { reading: number; waiting: number; threads: number };
}

const unreadable = (reason: string) => new AppError("pdf_unreadable", 422, `The PDF cannot be read: ${reason}`);

/** One file on a fresh thread, ended when it answers or when `timeoutMs` has passed (wall time: a watchdog). */
function readOnThread(bytes: Uint8Array, timeoutMs: number, alive: { threads: number }): Promise<PdfText> {
  const worker = new Worker(workerEntry("knowledge/pdf-worker", new URL("./pdf-worker.ts", import.meta.url)));
  alive.threads++;
  worker.addEventListener("close", () => alive.threads--);
  return new Promise<PdfText>((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () => finish(() => reject(unreadable(`reading it took longer than ${timeoutMs / 1000} s.`))),
      timeoutMs,
    );
    worker.onmessage = ({ data }: MessageEvent<PdfAnswer>) =>
      finish(() => (data.ok ? resolve(data.pdf) : reject(unreadable(data.reason))));
    worker.onerror = (event) => finish(() => reject(unreadable(`the reader stopped: ${event.message}`)));
    // A copy crosses to the thread (transferred, not cloned again): the caller's bytes stay intact.
    const copy = new Uint8Array(bytes);
    worker.postMessage(copy, [copy.buffer]);
  });
}

export function createPdfReader(options: PdfReaderOptions = {}): PdfReader {
  const timeoutMs = options.timeoutMs ?? PDF_TIMEOUT_MS;
  const threads = options.threads ?? PDF_THREADS;
  const queue = options.queue ?? PDF_QUEUE;
  let reading = 0;
  const alive = { threads: 0 };
  const waiting: Array<() => void> = [];
  const takeTurn = async (): Promise<void> => {
    if (reading < threads) {
      reading++;
      return;
    }
    if (waiting.length >= queue)
      throw new AppError(
        "pdf_busy",
        503,
        `${reading + waiting.length} PDFs are being read or waiting; send this one again in a moment.`,
        undefined,
        { "retry-after": String(PDF_BUSY_RETRY_AFTER_S) },
      );
    // The ending read hands its turn over as it is (`reading` stays counted).
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const endTurn = () => {
    const next = waiting.shift();
    if (next) next();
    else reading--;
  };
  return {
    async read(bytes) {
      if (bytes.byteLength > MAX_PDF_BYTES)
        throw new AppError("document_too_large", 413, `The PDF is larger than ${MAX_PDF_BYTES / 1024 / 1024} MB.`);
      if (Buffer.from(bytes.subarray(0, 1024)).indexOf("%PDF-") < 0)
        throw unreadable("it does not start like a PDF (%PDF-).");
      await takeTurn();
      try {
        return await readOnThread(bytes, timeoutMs, alive);
      } finally {
        endTurn();
      }
    },
    load: () => ({ reading, waiting: waiting.length, threads: alive.threads }),
  };
}

/** The process's reader: one server per process, so its turns are the server's. */
const serverReader = createPdfReader();

export const pdfToText = (bytes: Uint8Array): Promise<PdfText> => serverReader.read(bytes);
