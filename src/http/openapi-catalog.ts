import { EVENT_CATALOG, EVENT_NAMES } from "../webhooks/events.ts";

/**
 * The parts of the OpenAPI document that Elysia's routes cannot say: which credentials and
 * rate group each path has (the auth and rate-limit macros leave no trace on a route), how
 * paths group into tags, the routes outside /api/v1 that answer files or text, and the
 * outbound webhooks.
 */

type SecurityRequirement = Record<string, string[]>;

export interface AccessRule {
  pattern: RegExp;
  security: SecurityRequirement[];
  note: string;
}

export const ACCESS_RULES: readonly AccessRule[] = [
  {
    pattern: /^\/api\/v1\/auth\//,
    security: [],
    note: "No credentials. Rate group auth: 5 per 60 s per client address.",
  },
  {
    pattern: /^\/api\/v1\/widget\//,
    security: [],
    note: "No credentials; the Origin header must be in the tenant's allowed origins. Rate group chat (GET /widget/config: analytics).",
  },
  {
    pattern: /^\/api\/v1\/hooks\/payments\//,
    security: [],
    note: "Stripe-Signature with the tenant's payment secret. Rate group hooks: 500 per 60 s per tenant.",
  },
  {
    pattern: /^\/api\/v1\/hooks\/whatsapp\//,
    security: [],
    note: "Meta's verify token (GET) or X-Hub-Signature-256 (POST). Rate group hooks: 500 per 60 s per tenant.",
  },
  {
    pattern: /^\/api\/v1\/(chatbot\/message|analytics\/events)/,
    security: [{ bearer: [] }],
    note: "A member's or a widget visitor's Bearer token. Rate group chat: 60 per 60 s per token.",
  },
  {
    pattern: /^\/api\/v1\/chatbot\/sessions\//,
    security: [{ bearer: [] }, { apiKey: [] }],
    note: "Bearer token (member or visitor) or X-API-Key. Rate group chat.",
  },
  { pattern: /^\/api\/v1\/me$/, security: [{ bearer: [] }], note: "A member's Bearer token. Rate group management." },
  {
    pattern: /^\/api\/v1\/webhooks\//,
    security: [{ apiKey: [] }],
    note: "X-API-Key. Rate group management: 120 per 60 s per key.",
  },
  {
    pattern: /^\/api\/v1\/analytics\//,
    security: [{ apiKey: [] }, { bearer: [] }],
    note: "X-API-Key or a member's Bearer token. Rate group analytics: 120 per 60 s.",
  },
  {
    pattern: /^\/api\/v1\//,
    security: [{ apiKey: [] }, { bearer: [] }],
    note: "X-API-Key, or a member's Bearer token (some routes need the owner or admin role; a member of several tenants names one with the X-Tenant-Id header or ?tenant_id=). Rate group management: 120 per 60 s.",
  },
  { pattern: /./, security: [], note: "No credentials." },
];

export const TAGS: ReadonlyArray<{ name: string; description: string; pattern: RegExp }> = [
  {
    name: "Auth",
    description: "Log in with e-mail and password; rotate refresh tokens.",
    pattern: /^\/api\/v1\/auth\//,
  },
  { name: "Account", description: "Who the credentials belong to.", pattern: /^\/api\/v1\/(me|tenant)$/ },
  {
    name: "Webhook rules",
    description: "Which events go where: the rules engine and its event catalog.",
    pattern: /^\/api\/v1\/webhooks\/(events|rules-engine)/,
  },
  {
    name: "Deliveries",
    description: "The delivery log with every attempt, dead letters and their re-trigger.",
    pattern: /^\/api\/v1\/webhooks\//,
  },
  {
    name: "Widget",
    description: "What the embeddable widget calls before the first message.",
    pattern: /^\/api\/v1\/widget\//,
  },
  { name: "Chat", description: "Messages, transcripts and the bot's configuration.", pattern: /^\/api\/v1\/chatbot\// },
  {
    name: "Privacy",
    description: "Erasure and export on a person's request.",
    pattern: /^\/api\/v1\/(leads\/:id(\/export)?|sessions\/:id)$/,
  },
  {
    name: "Operator",
    description: "Hand-off: sessions, operator replies, leads and appointments.",
    pattern: /^\/api\/v1\/(sessions|leads|appointments|inbox)/,
  },
  { name: "Knowledge", description: "The documents the assistant answers from.", pattern: /^\/api\/v1\/knowledge\// },
  { name: "Billing", description: "Plan and monthly usage.", pattern: /^\/api\/v1\/(subscription|usage)/ },
  { name: "Analytics", description: "Widget telemetry in, per-day counts out.", pattern: /^\/api\/v1\/analytics\// },
  {
    name: "Integrations",
    description: "Inbound WhatsApp and payment webhooks and their settings.",
    pattern: /^\/api\/v1\/(hooks|integrations)\//,
  },
  { name: "Service", description: "Health, metrics and the pages and scripts the server serves.", pattern: /./ },
];

/**
 * Documentation only, for the routes outside /api/v1: they answer text, HTML or scripts built
 * as Response objects, which Elysia does not check against a schema anyway.
 */
export const STATIC_ROUTES: Readonly<
  Record<string, { summary: string; description: string; type: string; schema?: object; status?: string }>
> = {
  "GET /healthz": {
    summary: "Liveness",
    description: "200 while the process runs.",
    type: "application/json",
    schema: { type: "object", required: ["status"], properties: { status: { const: "ok" } } },
  },
  "GET /readyz": {
    summary: "Readiness",
    description:
      "200 when the database takes writes; 503 storage_full or not_ready otherwise (a lock held by another process is still ready, with storage: busy).",
    type: "application/json",
    schema: {
      type: "object",
      required: ["status"],
      properties: { status: { const: "ready" }, storage: { const: "busy" } },
    },
  },
  "GET /metrics": {
    summary: "Prometheus metrics",
    description: "Delivery, scheduler, assistant and process counters; aggregate counts only, no tenant data.",
    type: "text/plain",
  },
  "GET /widget.js": {
    summary: "The chat widget",
    description: "One minified script; embed it with the snippet the demo page shows.",
    type: "application/javascript",
  },
  "GET /favicon.ico": {
    summary: "No favicon",
    description: "An empty answer instead of a 404 in browser consoles.",
    type: "image/x-icon",
    status: "204",
  },
  "GET /": {
    summary: "Demo page",
    description: "Embeds the demo tenant's widget and shows the snippet for your site.",
    type: "text/html",
  },
  "GET /admin": {
    summary: "Admin page",
    description: "Rules, deliveries, dead letters, inbox and analytics; asks for the tenant's API key.",
    type: "text/html",
  },
  "GET /admin.js": {
    summary: "The admin page's script",
    description: "Served beside /admin under its Content-Security-Policy.",
    type: "application/javascript",
  },
};

const DELIVERY_HEADERS = [
  [
    "X-Service-Signature",
    "sha256=<hex HMAC-SHA256(rule secret, body without its signature member)>; the same value as the body's signature.",
  ],
  ["X-Service-Event", "The event name."],
  ["X-Service-Attempt", "1 to 4 within a cycle."],
  ["webhook-id", "Standard Webhooks: the webhook_id."],
  ["webhook-timestamp", "Standard Webhooks: send time, Unix seconds."],
  ["webhook-signature", "Standard Webhooks: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>."],
] as const;

/** The outbound deliveries, as OpenAPI 3.1 `webhooks`: what a receiver gets for each event. */
export function webhookOperations() {
  return Object.fromEntries(
    EVENT_NAMES.map((name) => {
      const definition = EVENT_CATALOG[name];
      return [
        name,
        {
          post: {
            tags: ["Webhook rules"],
            summary: name,
            description: `${definition.description} Priority ${definition.priority}.${definition.hasConfidence ? " data.confidence (0–1) is what conditions.min_confidence filters on." : ""} Any 2xx within 10 s acknowledges; otherwise retries follow after 30 s, 5 min and 30 min, then the delivery is dead-lettered.`,
            parameters: DELIVERY_HEADERS.map(([header, description]) => ({
              name: header,
              in: "header",
              required: true,
              description,
              schema: { type: "string" },
            })),
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/WebhookDelivery" },
                  example: {
                    event: name,
                    webhook_id: "wh_01jz4k8m2q9wz7xr3t5v6b8c0d",
                    timestamp: "2026-01-15T09:00:00.000Z",
                    data: definition.example,
                    signature: "sha256=…",
                  },
                },
              },
            },
            responses: { "200": { description: "Any 2xx status acknowledges the delivery." } },
          },
        },
      ];
    }),
  );
}

export const WEBHOOK_DELIVERY_SCHEMA = {
  type: "object",
  description:
    'Compact JSON, keys in this order. The signature covers the exact bytes up to the ,"signature" member, closed with }.',
  required: ["event", "webhook_id", "timestamp", "data", "signature"],
  properties: {
    event: { type: "string", enum: [...EVENT_NAMES] },
    webhook_id: {
      type: "string",
      description: "Stays the same on every retry and re-trigger: dedupe on it.",
      examples: ["wh_01jz4k8m2q9wz7xr3t5v6b8c0d"],
    },
    timestamp: { type: "string", format: "date-time", description: "When the event happened." },
    data: { type: "object", description: 'The event\'s data; a test delivery has "test": true.' },
    signature: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
  },
};
