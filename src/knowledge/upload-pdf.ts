import type { Deps } from "../deps.ts";
import { notFound } from "../lib/app-error.ts";
import { newId } from "../lib/ids.ts";
import { addDocument } from "./documents.ts";
import type { Embedder } from "./embedder.ts";
import { assertSourceRoom, insertSourceInRoom } from "./limits.ts";
import { pdfToText } from "./pdf-text.ts";
import { newSourceRow, toSourceView, type SourceView } from "./sources.ts";

export interface PdfUpload {
  bytes: Uint8Array;
  title?: string;
}

/**
 * An uploaded PDF as an `upload` source with one document: its text, one `## Page N` section a
 * page, so a passage the assistant cites names its page. The file is read before anything is
 * stored; a document the plan has no room for takes its source away with it.
 */
export async function uploadPdf(
  deps: Deps,
  tenantId: string,
  input: PdfUpload,
  embedder: Embedder | null,
): Promise<SourceView> {
  // Checked before the file is read too: a refused upload costs no PDF thread.
  await assertSourceRoom(deps.store, tenantId);
  const pdf = await pdfToText(input.bytes);
  const title = (input.title?.trim() || pdf.title || "Uploaded PDF").slice(0, 200);
  const now = deps.clock.now();
  const id = newId("src", now);
  const report = { counts: { imported: 1, updated: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 }, pages: [] };
  await insertSourceInRoom(
    deps.store,
    newSourceRow({
      id,
      tenantId,
      kind: "upload",
      url: null,
      title,
      status: "ok",
      lastFetchedAt: now,
      lastChangedAt: now,
      report: JSON.stringify(report),
      createdAt: now,
    }),
  );
  try {
    await addDocument(deps, tenantId, { title, content: pdf.text, format: "pdf", sourceId: id }, embedder);
  } catch (error) {
    await deps.store.knowledgeSources.deleteSource(tenantId, id);
    throw error;
  }
  const row = await deps.store.knowledgeSources.findSource(tenantId, id);
  if (!row) throw notFound("source");
  return toSourceView(row, true);
}
