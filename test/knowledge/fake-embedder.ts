import type { Embedder } from "../../src/knowledge/embedder.ts";

/**
 * A deterministic stand-in for an embedding model: each dimension is a concept, and a text's
 * vector counts the words it contains of each concept. Synonyms share a dimension, so "how
 * much does it cost" lands near "our fees" although they share no word: exactly what BM25
 * cannot do and vectors should.
 */
export const CONCEPTS: ReadonlyArray<readonly string[]> = [
  ["price", "prices", "cost", "costs", "fee", "fees", "charge", "charges", "expensive", "cheap", "tariff", "tariffs"],
  ["parking", "park", "car", "cars", "garage", "vehicle"],
  ["hours", "open", "opening", "closed", "close", "schedule", "timetable"],
  ["children", "kids", "child", "kid", "toddler", "toddlers", "family"],
  ["pain", "hurt", "hurts", "ache", "aching", "sore", "emergency", "urgent"],
  ["pay", "payment", "card", "cash", "instalments", "installments", "finance", "financing"],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // A text naming no concept is the zero vector, similar to nothing, as a real model's unrelated texts are.
  return CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length);
}

export interface RecordingEmbedder extends Embedder {
  calls: string[][];
}

export function conceptEmbedder(model = "concepts-v1"): RecordingEmbedder {
  const calls: string[][] = [];
  return {
    model,
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map(conceptVector);
    },
  };
}

export const failingEmbedder: Embedder = {
  model: "broken",
  async embed() {
    throw new Error("provider down");
  },
};
