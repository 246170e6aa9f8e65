import { ANSWERS } from "./answers.ts";
import { BEAUTY_SALON_CORPUS } from "./beauty-salon.ts";
import { CAR_SERVICE_CORPUS } from "./car-service.ts";
import { DENTAL_CORPUS } from "./dental-clinic.ts";
import { FOLLOW_UPS } from "./follow-ups.ts";
import { GENERAL_CORPUS } from "./general.ts";
import { LONGER_CHATS } from "./longer-chats.ts";
import { REAL_ESTATE_CORPUS } from "./real-estate.ts";
import type { CorpusConversation } from "./types.ts";

const bySector = (sector: string): CorpusConversation[] =>
  [...LONGER_CHATS, ...FOLLOW_UPS, ...ANSWERS].filter((conversation) => conversation.sector === sector);

/** The corpus by sector slug; every sector template has conversations. */
export const CORPUS: Record<string, CorpusConversation[]> = {
  "dental-clinic": [...DENTAL_CORPUS, ...bySector("dental-clinic")],
  "real-estate": [...REAL_ESTATE_CORPUS, ...bySector("real-estate")],
  "car-service": [...CAR_SERVICE_CORPUS, ...bySector("car-service")],
  "beauty-salon": [...BEAUTY_SALON_CORPUS, ...bySector("beauty-salon")],
  general: [...GENERAL_CORPUS, ...bySector("general")],
};
