import { afterEach, describe, expect, test } from "bun:test";
import { createPdfReader, pdfToText, type PdfReader } from "../../src/knowledge/pdf-text.ts";
import { refusal } from "../helpers.ts";
import { makePdf, makeSlowPdf } from "./make-pdf.ts";

const servers: Array<ReturnType<typeof Bun.serve>> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/** Event-loop turns until the reader's threads have all ended (bounded: a thread that never ends fails the test). */
async function threadsEnded(reader: PdfReader): Promise<number> {
  for (let turn = 0; turn < 2_000 && reader.load().threads > 0; turn++) await new Promise((r) => setTimeout(r, 5));
  return reader.load().threads;
}

describe("PDFs read on a thread of their own", () => {
  test("a request that arrives while a slow PDF is being read is answered before the PDF is read", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("pong") });
    servers.push(server);
    let read = false;
    const reading = pdfToText(makeSlowPdf(100_000)).then((pdf) => {
      read = true;
      return pdf;
    });
    // A loopback round trip needs the server's event loop several times; on the reading thread it would wait for the page.
    expect(await (await fetch(`http://127.0.0.1:${server.port}/`)).text()).toBe("pong");
    expect(read).toBe(false);
    const pdf = await reading;
    expect(pdf).toMatchObject({ title: "Slow", pages: 1 });
    expect(pdf.text).toContain("w99999");
  });

  test("a PDF that takes longer than the deadline is a 422 and its thread is terminated; the next file is read", async () => {
    const reader = createPdfReader({ timeoutMs: 50 });
    expect(await refusal(reader.read(makeSlowPdf(100_000)))).toMatchObject({
      code: "pdf_unreadable",
      status: 422,
      message: "The PDF cannot be read: reading it took longer than 0.05 s.",
    });
    expect(await threadsEnded(reader)).toBe(0);
    expect(reader.load()).toEqual({ reading: 0, waiting: 0, threads: 0 });
    const quick = createPdfReader();
    expect(await quick.read(makePdf(["Still readable."]))).toMatchObject({ text: "## Page 1\n\nStill readable." });
  });

  test("files are read one at a time, a few wait their turn, and past those an upload is told to come back (503)", async () => {
    const reader = createPdfReader({ threads: 1, queue: 1 });
    const first = reader.read(makeSlowPdf(20_000));
    const second = reader.read(makePdf(["Second in line."]));
    await Promise.resolve();
    expect(reader.load()).toMatchObject({ reading: 1, waiting: 1 });
    const third = await refusal(reader.read(makePdf(["No room."])));
    expect(third).toMatchObject({ code: "pdf_busy", status: 503, headers: { "retry-after": "5" } });
    expect((await first).pages).toBe(1);
    expect((await second).text).toBe("## Page 1\n\nSecond in line.");
    expect(await threadsEnded(reader)).toBe(0);
  });
});
