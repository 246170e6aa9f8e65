import type { Deps } from "../deps.ts";
import { sendWebhook } from "../webhooks/send-webhook.ts";
import { attemptDelivery, type SendFn } from "./attempt.ts";
import { type AttemptRecorder, createAttemptRecorder } from "./attempt-recorder.ts";
import { scheduleTick, type TickDelay } from "./tick-timer.ts";
import { createDeliveryMetrics, type DeliveryMetrics } from "./metrics.ts";
import { createHousekeeping, type Housekeeping } from "./housekeeping.ts";
import { storageTroubleOf } from "../db/storage-errors.ts";
import type { ClaimedDelivery, FairClaim } from "../db/store.ts";
import { createFairShare, type FairShare } from "./fair-share.ts";
import type { DeliveryReceiver } from "../webhooks/delivery-handoff.ts";
import { createRuleRateLimit, type RuleRateLimit } from "./rule-rate-limit.ts";

export type { SendFn } from "./attempt.ts";

export interface SchedulerOptions {
  send?: SendFn;
  metrics?: DeliveryMetrics;
  /** How often expired dead letters and old provider message ids are purged and the WAL checkpointed. */
  maintenanceIntervalMs?: number;
  /** The server checkpoints SQLite's WAL on a thread of its own (src/db/sqlite/checkpoint-thread.ts): then the scheduler does not. */
  checkpointElsewhere?: boolean;
}

const MAX_CLAIM_BATCH = 256;

/**
 * The one in-process delivery loop. It re-arms a setTimeout rather than using setInterval:
 * after a full batch it runs again at once, after a partial one it sleeps one poll interval,
 * and an enqueue (deliveriesEnqueued) or a finished send wakes it early. Sends run
 * concurrently up to PARLEY_DELIVERY_CONCURRENCY, shared fairly (src/scheduler/fair-share.ts:
 * per-tenant and per-endpoint caps, tenants taking turns); results are recorded in batches.
 *
 * Tests call `runOnce()` under a fake clock instead of `start()`.
 */
export class DeliveryScheduler {
  readonly metrics: DeliveryMetrics;
  /** Sends in flight per tenant and endpoint, and which endpoints are sick. */
  readonly fairShare: FairShare;
  private readonly send: SendFn;
  private readonly leaseMs: number;
  private inFlight = new Set<Promise<void>>();
  /** Finished attempts, recorded in batches. */
  private readonly recorder: AttemptRecorder;
  /** Cancels the armed tick; null while none is armed (a tick is running, or the loop is saturated and idle). */
  private cancelTick: (() => void) | null = null;
  private maintenanceTimer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Purges, the retention sweep and the WAL checkpoint, every maintenance interval; stop() waits for a run. */
  private readonly housekeeping: Housekeeping;
  private running = false;
  /** The claim under way: a tick that comes meanwhile asks for another one after it instead. */
  private claiming: Promise<FairClaim> | null = null;
  private claimAgain = false;
  /** What enqueues in this process hand their deliveries to while the loop runs (emit-event.ts). */
  private readonly receiver: DeliveryReceiver;
  /** Leases being given back (deliveries handed over with no room left): stop() waits for them. */
  private givingBack = new Set<Promise<void>>();
  private readonly ruleRates: RuleRateLimit;

  constructor(
    private readonly deps: Deps,
    private readonly options: SchedulerOptions = {},
  ) {
    this.send = options.send ?? sendWebhook;
    this.metrics = options.metrics ?? createDeliveryMetrics();
    this.fairShare = createFairShare({
      tenantConcurrency: deps.config.tenantConcurrency,
      endpointConcurrency: deps.config.endpointConcurrency,
    });
    this.metrics.watchFairShare(this.fairShare);
    // The lease must outlast the whole attempt (bounded by the timeout) or a slow but live
    // send would be claimed and sent again by the next tick.
    this.leaseMs = deps.config.deliveryTimeoutMs * 2 + 1_000;
    this.receiver = { leaseMs: this.leaseMs, accept: (deliveries) => this.accept(deliveries) };
    this.housekeeping = createHousekeeping(deps, { checkpointElsewhere: options.checkpointElsewhere });
    this.ruleRates = createRuleRateLimit(deps);
    this.recorder = createAttemptRecorder(deps, this.metrics, () => this.running);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.deps.deliveriesEnqueued.subscribe(() => this.wake());
    if (this.deps.deliveryHandoff) this.deps.deliveryHandoff.receiver = this.receiver;
    this.maintenanceTimer = setInterval(
      () => this.housekeeping.runInBackground(),
      this.options.maintenanceIntervalMs ?? 10_000,
    );
    this.housekeeping.runInBackground();
    this.arm(0);
  }

  /** Stops claiming, waits for the sends in flight (each bounded by the timeout), records them. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.deps.deliveryHandoff?.receiver === this.receiver) this.deps.deliveryHandoff.receiver = null;
    this.cancelTick?.();
    this.cancelTick = null;
    if (this.maintenanceTimer) clearInterval(this.maintenanceTimer);
    // A claim under way dispatches what it leased (sends stop() must wait for) before it ends.
    await this.claiming?.catch(() => undefined);
    await Promise.all(this.inFlight);
    await Promise.all(this.givingBack);
    await this.housekeeping.settled();
    await this.recorder.flush();
  }

  /** Sends everything due now and records the results before resolving. Returns how many were sent. */
  async runOnce(): Promise<number> {
    await this.deps.store.deadLetters.purgeExpiredDeadLetters(this.deps.clock.now());
    let total = 0;
    for (;;) {
      const { claimed, more } = await this.claim(MAX_CLAIM_BATCH);
      claimed.forEach((delivery) => this.dispatch(delivery));
      total += claimed.length;
      await Promise.all(this.inFlight);
      await this.recorder.flush();
      // Rows held back by a cap are due still: the caps are free again once the sends above ended.
      if (claimed.length < MAX_CLAIM_BATCH && !(more && claimed.length > 0)) return total;
    }
  }

  /**
   * Rows were just committed (an enqueue): claim them at once, before this turn of the event
   * loop reads its I/O. Under HTTP load that I/O is tens of requests that would otherwise come
   * first, the POST waiting behind them (docs/hot-path.md). Only this one claim jumps the queue; every "again at once" after it is `arm(0)`, after the I/O.
   */
  wake(): void {
    this.arm("before-io");
  }

  /** Arms the next tick (src/scheduler/tick-timer.ts), replacing the one armed. */
  private arm(delay: TickDelay): void {
    if (!this.running) return;
    this.cancelTick?.();
    this.cancelTick = scheduleTick(delay, () => void this.tick());
  }

  private async tick(): Promise<void> {
    this.cancelTick = null;
    if (!this.running) return;
    // The claim is async (src/db/store.ts): a tick armed while it is under way must not make a
    // second claim beside it (both would count the same free slots), so it asks for a re-run.
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    const free = this.deps.config.deliveryConcurrency - this.inFlight.size;
    const wanted = Math.min(free, MAX_CLAIM_BATCH);
    let claim: FairClaim = { claimed: [], more: false };
    if (wanted > 0) {
      this.claiming = this.claim(wanted);
      try {
        claim = await this.claiming;
      } catch (error) {
        // A locked or briefly unavailable database must not kill the loop: try again next poll.
        // A lock held by another process (a CLI command, a backup) is normal: not logged.
        if (storageTroubleOf(error) !== "busy")
          this.deps.log.error({ msg: "claiming deliveries failed", error: String(error) });
      } finally {
        this.claiming = null;
      }
    }
    const { claimed, more } = claim;
    if (this.claimAgain) {
      this.claimAgain = false;
      claimed.forEach((delivery) => this.dispatch(delivery));
      this.arm(0);
      return;
    }
    claimed.forEach((delivery) => this.dispatch(delivery));
    // A full batch means more may be due: go again at once. So does a claim that left rows for a
    // tenant or endpoint that just filled up: the next claim skips those in SQL and finds the
    // rows behind them. When saturated, or when a capped tenant or endpoint gets a slot back,
    // a finishing send re-arms.
    if (wanted > 0 && (claimed.length === wanted || (more && claimed.length > 0))) this.arm(0);
    else if (wanted > 0 || this.inFlight.size === 0) this.arm(this.deps.config.pollIntervalMs);
  }

  /**
   * Deliveries an enqueue leased to this loop, just committed: those the fair share has room
   * for are sent at once; the rest are given back. A stopped loop gives back all of them.
   */
  private accept(deliveries: ClaimedDelivery[]): void {
    // It runs in the enqueuing request's commit hook: whatever goes wrong here must not turn
    // that committed request into an error. A delivery left leased is sent when the lease ends.
    try {
      const free = this.running ? this.deps.config.deliveryConcurrency - this.inFlight.size : 0;
      const picked = free > 0 ? this.fairShare.pick(deliveries, free) : [];
      picked.forEach((delivery) => this.dispatch(delivery));
      if (picked.length < deliveries.length) this.giveBack(deliveries.filter((delivery) => !picked.includes(delivery)));
    } catch (error) {
      this.deps.log.error({
        msg: "handing over deliveries failed: they are sent when their lease runs out",
        count: deliveries.length,
        error: String(error),
      });
    }
  }

  /**
   * Makes handed-over deliveries due again at once, then wakes the schedulers (on PostgreSQL,
   * every instance's) to claim them as usual. If that fails, their lease runs out instead and
   * they are sent then: late, never lost.
   */
  private giveBack(deliveries: ClaimedDelivery[]): void {
    const leaseToken = deliveries[0]?.leaseToken;
    if (leaseToken === undefined) return;
    const given: Promise<void> = this.deps.store.deliveryQueue
      .releaseLeases(
        deliveries.map((delivery) => delivery.id),
        leaseToken,
        this.deps.clock.now(),
      )
      .then(
        () => this.deps.deliveriesEnqueued.notify(),
        (error: unknown) =>
          this.deps.log.error({
            msg: "giving back deliveries failed: they are sent when their lease runs out",
            count: deliveries.length,
            error: String(error),
          }),
      )
      .finally(() => this.givingBack.delete(given));
    this.givingBack.add(given);
  }

  private claim(limit: number): Promise<FairClaim> {
    return this.deps.store.deliveryQueue.claimFairShare(this.deps.clock.now(), limit, this.leaseMs, this.fairShare);
  }

  /** Sends a claimed delivery; one of a rate-limited rule goes through its rate check first (holding a slot). */
  private dispatch(delivery: ClaimedDelivery): void {
    const perSecond = delivery.rateLimitPerS ?? null;
    if (perSecond === null) return void this.inFlight.add(this.sendNow(delivery));
    const gate: Promise<void> = this.ruleRates
      .mayGoNow(delivery, perSecond)
      .then((go) => (go ? this.sendNow(delivery) : undefined))
      // Neither sent nor postponed: the lease runs out and it is claimed again (late, never lost).
      .catch((error: unknown) =>
        this.deps.log.error({ msg: "rate check failed", webhookId: delivery.id, error: String(error) }),
      )
      .finally(() => {
        this.inFlight.delete(gate);
        if (this.running && this.cancelTick === null) this.arm(0);
      });
    this.inFlight.add(gate);
  }

  /** One attempt now; the returned task is what the loop waits for. */
  private sendNow(delivery: ClaimedDelivery): Promise<void> {
    this.fairShare.start(delivery.tenantId, delivery.url);
    let ok = false;
    const task = attemptDelivery(this.deps, this.send, delivery)
      .then((attempt) => {
        ok = attempt.result.ok;
        this.recorder.add(attempt);
      })
      .finally(() => {
        const wasCapped = this.fairShare.isFull(delivery.tenantId, delivery.url);
        this.fairShare.finish(delivery.tenantId, delivery.url, ok);
        this.inFlight.delete(task);
        // A slot freed while the loop was saturated, or for a tenant or endpoint whose rows
        // were held back: claim more now rather than at the next poll.
        if (this.running && (this.cancelTick === null || wasCapped)) this.arm(0);
      });
    return task;
  }
}
