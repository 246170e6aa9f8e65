import type { Ops } from "../statements.ts";
import type { StoreQueries } from "../store.ts";
import { API_KEY_OPS, REFRESH_TOKEN_OPS, SETTING_OPS, USER_OPS } from "./accounts.ts";
import { CAPTURE_OPS } from "./chat.ts";
import { DEAD_LETTER_OPS } from "./dead-letters.ts";
import { DESK_OPS } from "./desk.ts";
import { CANNED_REPLY_OPS } from "./inbox.ts";
import { INTEGRATION_OPS } from "./integrations.ts";
import { KNOWLEDGE_SOURCE_OPS } from "./knowledge-sources.ts";
import { LIVE_EVENT_OPS } from "./live.ts";
import { TEST_SET_OPS, UNANSWERED_OPS } from "./test-set.ts";
import { DELIVERY_OPS, OUTBOX_OPS, WEBHOOK_RULE_OPS } from "./webhooks.ts";

/** The aggregates made of shared statements alone; the others add a variant per store. */
export const SHARED_AGGREGATES = {
  users: USER_OPS,
  apiKeys: API_KEY_OPS,
  refreshTokens: REFRESH_TOKEN_OPS,
  settings: SETTING_OPS,
  captures: CAPTURE_OPS,
  integrations: INTEGRATION_OPS,
  knowledgeSources: KNOWLEDGE_SOURCE_OPS,
  liveEvents: LIVE_EVENT_OPS,
  desk: DESK_OPS,
  cannedReplies: CANNED_REPLY_OPS,
  webhookRules: WEBHOOK_RULE_OPS,
  outbox: OUTBOX_OPS,
  deliveries: DELIVERY_OPS,
  deadLetters: DEAD_LETTER_OPS,
  testSet: TEST_SET_OPS,
  unanswered: UNANSWERED_OPS,
} satisfies { [K in keyof StoreQueries]?: Ops<StoreQueries[K]> };

export type SharedAggregate = keyof typeof SHARED_AGGREGATES;

/** Every shared aggregate, made at once by `prepare`. */
export function sharedAggregates<All extends Record<SharedAggregate, unknown>>(
  prepare: (ops: Ops<unknown>) => unknown,
): Pick<All, SharedAggregate> {
  return Object.fromEntries(
    Object.entries(SHARED_AGGREGATES).map(([name, ops]) => [name, prepare(ops as Ops<unknown>)]),
  ) as Pick<All, SharedAggregate>;
}
