/**
 * The contract between the knowledge base and whoever computes embeddings (the assistant's
 * OpenAI-compatible client in src/assistant/, or a fake in tests). `embed` returns one vector
 * per text, in order. `model` names the vector space: vectors stored under another model are
 * never compared with this one's.
 */
export interface Embedder {
  readonly model: string;
  /**
   * The cosine at which a chunk counts as relevant by meaning alone. Each model has its own
   * scale (unrelated texts score about 0.1 with some, 0.5 with others), so it travels with the
   * model; unset, search uses DEFAULT_MIN_SIMILARITY.
   */
  readonly minSimilarity?: number;
  embed(texts: string[]): Promise<number[][]>;
}

/** Float32 little-endian bytes, the BLOB stored in knowledge_chunks.embedding. */
export function encodeVector(vector: readonly number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

export function decodeVector(bytes: Uint8Array): Float32Array {
  // Copy into a fresh, aligned buffer: a BLOB's bytes may start at any offset.
  const copy = new Uint8Array(bytes.byteLength - (bytes.byteLength % 4));
  copy.set(bytes.subarray(0, copy.byteLength));
  return new Float32Array(copy.buffer);
}

/** Scales a vector to length 1 so cosine similarity is a dot product; a zero vector stays zero. */
export function normalizeVector(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector as ArrayLike<number>);
  let sum = 0;
  for (const value of out) sum += value * value;
  const length = Math.sqrt(sum);
  if (length > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / length;
  return out;
}

/** Cosine similarity of two unit vectors; vectors of different lengths (another model) score 0. */
export function dotProduct(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/** The embedder a tenant's documents are embedded with (its AI settings), or null for BM25 only. */
export type EmbedderOf = (tenantId: string) => Promise<Embedder | null>;
