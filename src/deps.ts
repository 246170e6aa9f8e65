import type { PasswordHasher } from "./auth/password.ts";
import type { TurnAssistant } from "./chat/turn-assistant.ts";
import type { Config } from "./config.ts";
import type { Store } from "./db/store.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/log.ts";
import type { Signal } from "./lib/signal.ts";
import type { DeliveryHandoff } from "./webhooks/delivery-handoff.ts";
import type { ResolveHost } from "./lib/ssrf.ts";

/** What every domain verb receives: the HTTP layer, the CLI and the scheduler build it once. */
export interface Deps {
  /** The async storage seam (src/db/store.ts, docs/storage.md): all data access goes through it. */
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly log: Logger;
  /** Drafts a chat turn with the tenant's model provider (src/assistant/turn-assistant.ts); the rule engine answers without one. */
  readonly assistant: TurnAssistant;
  /** Notified after deliveries are enqueued, so the scheduler sends at once instead of at its next poll. */
  readonly deliveriesEnqueued: Signal;
  /** The scheduler of this process, to which enqueued deliveries go straight after COMMIT (src/webhooks/delivery-handoff.ts). */
  readonly deliveryHandoff?: DeliveryHandoff;
  /** Notified after live events are committed (src/frontdesk/live-events.ts); on PostgreSQL it reaches every instance. */
  readonly liveEventsWritten?: Signal;
  /** DNS for the webhook SSRF checks; tests inject a fake so they never touch the network. */
  readonly resolveHost?: ResolveHost;
  /** Password hashing; absent means argon2id at production cost. Test fixtures inject a cheap one. */
  readonly passwords?: PasswordHasher;
}
