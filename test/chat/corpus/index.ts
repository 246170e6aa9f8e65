import { BEAUTY_SALON_CORPUS } from "./beauty-salon.ts";
import { CAR_SERVICE_CORPUS } from "./car-service.ts";
import { DENTAL_CORPUS } from "./dental-clinic.ts";
import { GENERAL_CORPUS } from "./general.ts";
import { REAL_ESTATE_CORPUS } from "./real-estate.ts";
import type { CorpusConversation } from "./types.ts";

/** The corpus by sector slug; every sector template has conversations. */
export const CORPUS: Record<string, CorpusConversation[]> = {
  "dental-clinic": DENTAL_CORPUS,
  "real-estate": REAL_ESTATE_CORPUS,
  "car-service": CAR_SERVICE_CORPUS,
  "beauty-salon": BEAUTY_SALON_CORPUS,
  general: GENERAL_CORPUS,
};
