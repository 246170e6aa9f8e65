/**
 * The event catalog: the nine event kinds a webhook rule can subscribe to. The spec names only
 * `lead.created`; the other names, the data shapes beyond lead.created and the confidence flags
 * are Parley's decisions (DESIGN §4). Priorities are the spec's Events table.
 */

export const EVENT_NAMES = [
  "session.started",
  "lead.created",
  "appointment.created",
  "payment.succeeded",
  "payment.failed",
  "subscription.changed",
  "handoff.requested",
  "quota.threshold_reached",
  "conversation.rated",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export type EventPriority = "info" | "medium" | "high" | "critical";

export type EventData = Readonly<Record<string, unknown>>;

export interface EventDefinition {
  readonly priority: EventPriority;
  readonly description: string;
  /** Whether `data.confidence` (0–1) is present, so `conditions.min_confidence` can filter it. */
  readonly hasConfidence: boolean;
  /** A realistic `data` object, used by docs, the OpenAPI document and rule test deliveries. */
  readonly example: EventData;
}

// Examples are shared by every caller; freezing them deeply means nobody can mutate the
// catalog by editing a returned example in place.
function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) freezeDeep(inner);
    Object.freeze(value);
  }
  return value;
}

export const EVENT_CATALOG: Readonly<Record<EventName, EventDefinition>> = freezeDeep({
  "session.started": {
    priority: "info",
    description: "A new chatbot session received its first visitor message.",
    hasConfidence: false,
    example: {
      session_id: "ses_01jz4k8m2q9wz7xr3t5v6b8c0d",
      chatbot_id: "bot_01jz4a1b2c3d4e5f6g7h8j9k0m",
      channel: "widget",
      started_at: "2026-01-15T08:59:58.120Z",
    },
  },
  "lead.created": {
    priority: "high",
    description: "The bot captured a lead with a validated name, E.164 phone number and e-mail.",
    hasConfidence: true,
    example: {
      lead_id: "lead_01jz4k9a7n3p5r7t9v1x3z5b7d",
      chatbot_id: "bot_01jz4a1b2c3d4e5f6g7h8j9k0m",
      session_id: "ses_01jz4k8m2q9wz7xr3t5v6b8c0d",
      sector: "dental-clinic",
      name: "Maria Schmidt",
      phone: "+4915123456789",
      email: "maria.schmidt@example.com",
      interest: "Teeth whitening, evenings preferred",
      source: "widget:https://www.example-dental.com/prices",
      captured_at: "2026-01-15T09:00:00.000Z",
      confidence: 0.92,
    },
  },
  "appointment.created": {
    priority: "high",
    description: "The bot booked an appointment for a visitor.",
    hasConfidence: true,
    example: {
      appointment_id: "apt_01jz4kb3c5e7g9j1m3p5r7t9v1",
      chatbot_id: "bot_01jz4a1b2c3d4e5f6g7h8j9k0m",
      session_id: "ses_01jz4k8m2q9wz7xr3t5v6b8c0d",
      sector: "dental-clinic",
      name: "Maria Schmidt",
      phone: "+4915123456789",
      email: "maria.schmidt@example.com",
      starts_at: "2026-01-20T17:30:00.000Z",
      ends_at: "2026-01-20T18:00:00.000Z",
      timezone: "Europe/Berlin",
      confidence: 0.87,
    },
  },
  "payment.succeeded": {
    priority: "critical",
    description: "An inbound payment provider event reported a successful payment.",
    hasConfidence: false,
    example: {
      payment_id: "pi_3QkF2nL8x9YzAbCd1EfGh2Ij",
      amount: 4900,
      currency: "EUR",
      customer_email: "billing@example-dental.com",
      provider: "stripe",
      occurred_at: "2026-01-15T09:00:00.000Z",
    },
  },
  "payment.failed": {
    priority: "critical",
    description: "An inbound payment provider event reported a failed or declined payment.",
    hasConfidence: false,
    example: {
      payment_id: "pi_3QkF3pM9y0ZaBcDe2FgHi3Jk",
      amount: 4900,
      currency: "EUR",
      customer_email: "billing@example-dental.com",
      provider: "stripe",
      failure_reason: "card_declined",
      occurred_at: "2026-01-15T09:00:00.000Z",
    },
  },
  "subscription.changed": {
    priority: "high",
    description: "The tenant's plan changed: an upgrade, a downgrade or a cancellation.",
    hasConfidence: false,
    example: {
      tenant_id: "ten_01jz49x8w7v6t5s4r3q2p1n0m9",
      from_plan: "starter",
      to_plan: "pro",
      change: "upgrade",
      changed_at: "2026-01-15T09:00:00.000Z",
    },
  },
  "handoff.requested": {
    priority: "medium",
    description: "The bot handed the session over to a human operator.",
    hasConfidence: true,
    example: {
      session_id: "ses_01jz4k8m2q9wz7xr3t5v6b8c0d",
      chatbot_id: "bot_01jz4a1b2c3d4e5f6g7h8j9k0m",
      reason: "keyword",
      last_message: "Can I talk to a real person, please?",
      within_business_hours: true,
      confidence: 0.95,
    },
  },
  "quota.threshold_reached": {
    priority: "medium",
    description: "Usage first reached 80 % of the plan's monthly message quota.",
    hasConfidence: false,
    example: {
      tenant_id: "ten_01jz49x8w7v6t5s4r3q2p1n0m9",
      plan: "starter",
      period: "2026-01",
      used: 8000,
      quota: 10000,
      percent: 80,
    },
  },
  "conversation.rated": {
    priority: "info",
    description: "A visitor rated a chat a person closed (1–5, with an optional comment).",
    hasConfidence: false,
    example: {
      session_id: "ses_01jz4k8m2q9wz7xr3t5v6b8c0d",
      chatbot_id: "bot_01jz4a1b2c3d4e5f6g7h8j9k0m",
      score: 5,
      comment: "Sam sorted it out in two minutes, thanks!",
      rated_at: "2026-01-15T09:12:00.000Z",
    },
  },
} satisfies Record<EventName, EventDefinition>);

export const isEventName = (value: unknown): value is EventName =>
  typeof value === "string" && Object.hasOwn(EVENT_CATALOG, value);
