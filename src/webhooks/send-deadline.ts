/**
 * Send deadlines shared by the sends whose deadlines fall in the same slot: one AbortController,
 * one timer and one `expired` promise per slot instead of per send (an AbortController alone
 * costs ~0.7 µs to make, its timer and clearTimeout ~0.2 µs more, for every delivery).
 *
 * A slot ends at or after each of its sends' deadlines, never before: a send is aborted at its
 * timeout, at most one slot (1 % of the timeout, 1–10 ms) later. When the last send of a slot
 * ends first, its timer is cancelled, so a process with nothing in flight has no timer pending.
 */

export interface SendDeadline {
  /** Aborts when the deadline passes (fetch honours it). */
  readonly signal: AbortSignal;
  /** Rejects with the abort reason when the deadline passes; every other await races it. */
  readonly expired: Promise<never>;
  /** The send is over: its slot's timer is cancelled if no other send waits on it. */
  release(): void;
}

export interface DeadlineTimers {
  now(): number;
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(timer: unknown): void;
}

interface Slot {
  controller: AbortController;
  expired: Promise<never>;
  pending: number;
  timer: unknown;
}

/** The slot width for a timeout: 1 % of it, between 1 and 10 ms. */
export const slotWidthMs = (timeoutMs: number): number => Math.min(10, Math.max(1, Math.floor(timeoutMs / 100)));

const realTimers: DeadlineTimers = {
  now: () => performance.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export function createSendDeadlines(timers: DeadlineTimers = realTimers) {
  const slots = new Map<number, Slot>();

  function openSlot(endsAt: number): Slot {
    const controller = new AbortController();
    const { promise: expired, reject } = Promise.withResolvers<never>();
    // Nobody may be racing it at the moment it rejects.
    expired.catch(() => undefined);
    const slot: Slot = { controller, expired, pending: 0, timer: null };
    slot.timer = timers.setTimer(
      () => {
        slots.delete(endsAt);
        controller.abort();
        reject(controller.signal.reason);
      },
      // Rounded up: a timer never fires before the slot ends, so no send is aborted early.
      Math.max(0, Math.ceil(endsAt - timers.now())),
    );
    slots.set(endsAt, slot);
    return slot;
  }

  return {
    /** A deadline `timeoutMs` from now. */
    start(timeoutMs: number): SendDeadline {
      const width = slotWidthMs(timeoutMs);
      const endsAt = Math.ceil((timers.now() + timeoutMs) / width) * width;
      const slot = slots.get(endsAt) ?? openSlot(endsAt);
      slot.pending++;
      let released = false;
      return {
        signal: slot.controller.signal,
        expired: slot.expired,
        release() {
          if (released) return;
          released = true;
          slot.pending--;
          if (slot.pending > 0 || slots.get(endsAt) !== slot) return;
          slots.delete(endsAt);
          timers.clearTimer(slot.timer);
        },
      };
    },
    /** Slots with a timer pending (tests). */
    openSlots: (): number => slots.size,
  };
}

export type SendDeadlines = ReturnType<typeof createSendDeadlines>;

/** The deadlines of this thread's sends (the send thread has its own). */
export const sendDeadlines: SendDeadlines = createSendDeadlines();
