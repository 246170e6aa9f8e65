/**
 * Chat latency while owners upload PDFs (docs/knowledge.md: a PDF is read on a thread of its own,
 * one at a time, so it never holds the server's thread). Not a test: it measures and prints a table.
 *
 *   npx bun bench/pdf-upload.ts
 *
 * Env: BENCH_PDF_SECONDS (10) measured per side, split into BENCH_PDF_SLICES (5) alternating
 * slices; BENCH_HOSTILE_CONCURRENCY (64) chat requests in flight (hostile-input.ts's load);
 * BENCH_PDF_UPLOADERS (2) uploading clients; BENCH_PDF_PAGES (30) pages of BENCH_PDF_LINES (8000)
 * drawn lines and 30 lines of text each: about 5 MB, which PDF.js reads in 1.4 s on one core here
 * (a brochure's vector graphics), while its text (46 KB) costs the server little to chunk and store.
 *
 * The chat load (the real app in a child process, 64 visitor messages in flight) runs in
 * alternating slices: alone, with uploads, and beside a process that keeps one core busy. The
 * uploads come from a second child process, in closed loops: each sends the PDF, and deletes the
 * source it made (so the plan never fills up). Reading a PDF takes one core for as long as it
 * lasts, so on a machine whose cores the chat load already fills, the fair comparison is a core
 * taken by anything: uploads cost chat no more than that when they never hold the server's thread.
 * Verdicts: the medians of the slices' p99 ratios to the slice alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openStore } from "../src/db/open-store.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { loadConfig } from "../src/config.ts";
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import { createDeliveryHandoff } from "../src/webhooks/delivery-handoff.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { pdfOfStreams } from "../test/knowledge/make-pdf.ts";
import { percentileOf, startChatServer, type ChatServer, type LoadResult } from "./chat-lib.ts";
import { chatLoad, type LoopChild, openSessions, runClientLoops, startLoopChild } from "./hostile-input.ts";
import { envInt, formatMs, formatRate, markdownTable, median } from "./lib.ts";

const SECONDS = envInt("BENCH_PDF_SECONDS", 10);
const SLICES = envInt("BENCH_PDF_SLICES", 5);
const UPLOADERS = envInt("BENCH_PDF_UPLOADERS", 2);
const PAGES = envInt("BENCH_PDF_PAGES", 30);
const LINES = envInt("BENCH_PDF_LINES", 8_000);

/** A page of `LINES` drawn lines under 30 lines of text. */
const drawnPage = (number: number): string => {
  const lines = Array.from(
    { length: LINES },
    (_, i) => `${i % 600} ${i % 780} m ${(i * 7) % 600} ${(i * 13) % 780} l S`,
  );
  const text = Array.from(
    { length: 30 },
    (_, line) =>
      `1 0 0 1 72 ${740 - line * 22} Tm (Page ${number} line ${line}: opening hours, prices and parking.) Tj`,
  );
  return `${lines.join("\n")}\nBT /F1 11 Tf\n${text.join("\n")}\nET`;
};
const benchPdf = () =>
  pdfOfStreams(
    Array.from({ length: PAGES }, (_, index) => drawnPage(index + 1)),
    "Brochure",
  );

/** A tenant on the business plan and its API key, written to the database the server will open. */
async function seedTenant(dbPath: string): Promise<{ tenantId: string; key: string }> {
  const opened = openStore(dbPath, {});
  await opened.migrate(systemClock.now());
  const deps = {
    store: opened.store,
    config: loadConfig({ PARLEY_DB: dbPath, PARLEY_JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123" }),
    clock: systemClock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: opened.deliveriesEnqueued,
    deliveryHandoff: createDeliveryHandoff(),
  };
  const tenantId = (await createTenant(deps, { name: "Bench Dental", sector: "dental-clinic", plan: "business" })).id;
  const { key } = await createApiKey(deps, { tenantId, name: "bench uploads" });
  await opened.close();
  return { tenantId, key };
}

/** The uploads in a child process: UPLOADERS closed loops until stopped; it reports what it sent. */
const startUploader = (server: ChatServer, key: string): LoopChild =>
  startLoopChild(import.meta.path, ["upload", server.base, key, String(UPLOADERS)]);

async function runUploadChild(base: string, key: string, lanes: number): Promise<void> {
  const pdf = benchPdf();
  await runClientLoops(lanes, async () => {
    const response = await fetch(`${base}/api/v1/knowledge/sources/pdf`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/pdf" },
      body: pdf,
    });
    const answer = (await response.json()) as { source_id?: string };
    if (answer.source_id)
      await fetch(`${base}/api/v1/knowledge/sources/${answer.source_id}`, {
        method: "DELETE",
        headers: { "x-api-key": key },
      });
    // A 503 pdf_busy asks to come back later: a client that obeys waits a little.
    if (response.status === 503) await Bun.sleep(100);
    return response.status;
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-pdf-"));
  const dbPath = join(dir, "bench.db");
  const { tenantId, key } = await seedTenant(dbPath);
  const server = await startChatServer([], "", dbPath, tenantId);
  try {
    const pdfKiB = (benchPdf().byteLength / 1024).toFixed(0);
    console.log(`Chat alone and while ${UPLOADERS} clients upload a ${pdfKiB} KiB PDF of ${PAGES} pages\n`);
    const tokens = await openSessions(server);
    const sliceSeconds = Math.max(1, SECONDS / SLICES);
    const p99 = (load: LoadResult) => percentileOf(load.latencies, 99);
    const slices: Array<{ calm: LoadResult; uploading: LoadResult; burning: LoadResult; uploads: string }> = [];
    for (let slice = 0; slice < SLICES; slice++) {
      const calm = await chatLoad(server, tokens, sliceSeconds);
      const uploader = startUploader(server, key);
      await Bun.sleep(200);
      const uploading = await chatLoad(server, tokens, sliceSeconds);
      const uploads = await uploader.stop();
      const burner = Bun.spawn([process.execPath, import.meta.path, "burn"], { stderr: "inherit" });
      const burning = await chatLoad(server, tokens, sliceSeconds);
      burner.kill();
      await burner.exited;
      slices.push({ calm, uploading, burning, uploads: `${uploads.sent}: ${uploads.statuses}` });
    }
    const ratio = (load: LoadResult, calm: LoadResult) => p99(load) / p99(calm);
    console.log(
      markdownTable(
        ["slice", "chat alone", "p99", "with uploads", "p99", "ratio", "beside a busy core", "p99", "ratio", "uploads"],
        slices.map(({ calm, uploading, burning, uploads }, i) => [
          String(i + 1),
          formatRate(calm.perSecond),
          formatMs(p99(calm)),
          formatRate(uploading.perSecond),
          formatMs(p99(uploading)),
          `${ratio(uploading, calm).toFixed(2)}×`,
          formatRate(burning.perSecond),
          formatMs(p99(burning)),
          `${ratio(burning, calm).toFixed(2)}×`,
          uploads,
        ]),
      ),
    );
    const uploadRatio = median(slices.map(({ calm, uploading }) => ratio(uploading, calm)));
    const coreRatio = median(slices.map(({ calm, burning }) => ratio(burning, calm)));
    console.log(
      `\nChat p99 while PDFs are uploaded ÷ chat p99 alone (median of ${SLICES}): ${uploadRatio.toFixed(2)}×`,
    );
    console.log(
      `Chat p99 beside a process keeping one core busy ÷ alone (median of ${SLICES}): ${coreRatio.toFixed(2)}×`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A core kept busy until killed (bounded: one whose parent died stops by itself). */
function burnCore(): void {
  const deadline = performance.now() + 10 * 60_000;
  while (performance.now() < deadline) {
    /* busy */
  }
}

if (import.meta.main) {
  if (process.argv[2] === "burn") burnCore();
  else if (process.argv[2] === "upload")
    await runUploadChild(process.argv[3] ?? "", process.argv[4] ?? "", Number(process.argv[5] ?? "2"));
  else await main();
}
