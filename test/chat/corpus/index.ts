import { DENTAL_CORPUS } from "./dental-clinic.ts";
import type { CorpusConversation } from "./types.ts";

export const CORPUS: Record<string, CorpusConversation[]> = {
  "dental-clinic": DENTAL_CORPUS,
};
