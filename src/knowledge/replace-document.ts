import type { Deps } from "../deps.ts";
import type { SourceDocument } from "../db/store.ts";
import { embedChunks, chunkRows, prepareDocument, type NewDocument } from "./documents.ts";
import type { Embedder } from "./embedder.ts";
import { assertKnowledgeRoom, inKnowledgeRoom } from "./limits.ts";

/**
 * Gives a document its page's new text: chunked and embedded as on a normal add (before the
 * transaction: a provider call never holds the database lock), then text, validators and chunks
 * swapped in one transaction. The id stays, so test cases that expect it as a source still
 * point at it; the new chunks have new ids, which is how the search index sees it is stale.
 */
export async function replaceDocument(
  deps: Deps,
  tenantId: string,
  old: SourceDocument,
  input: NewDocument,
  embedder: Embedder | null,
): Promise<void> {
  const { title, text, chunks, bytes } = await prepareDocument(deps, tenantId, input, { bytes: old.bytes });
  const vectors = await embedChunks(deps, chunks, embedder);
  await inKnowledgeRoom(deps.store, tenantId, async (tx) => {
    await assertKnowledgeRoom(tx, tenantId, bytes, { bytes: old.bytes });
    await tx.knowledgeSources.replaceDocumentContent({
      id: old.id,
      title,
      format: input.format,
      content: text,
      bytes,
      chunkCount: chunks.length,
      etag: input.fetched?.etag ?? null,
      lastModified: input.fetched?.lastModified ?? null,
      contentHash: input.fetched?.contentHash ?? null,
    });
    await tx.knowledgeSources.deleteDocumentChunks(old.id);
    await tx.knowledge.insertChunks(chunkRows(tenantId, old.id, chunks, vectors, embedder));
  });
}
