import { t, type TSchema } from "elysia";
import type { TLiteral, TUnion } from "@sinclair/typebox";
import { MESSAGE_ROLES, SESSION_STATUSES } from "../db/schema.ts";

/**
 * Building blocks of the routes' response schemas. Elysia checks every answer against its
 * schema, and with `normalize: false` (src/http/app.ts) an undeclared key fails the check too:
 * a field added to a view must be added here or beside its route, or that route answers 500
 * (its tests catch it). That is the point: /docs/json cannot drift from the answers, and a
 * field nobody declared (a secret, say) never leaves the server by accident.
 */

type LiteralTuple<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * One of a fixed list of strings (the OpenAPI document shows it as an `enum`). The declared
 * type keeps the tuple: `values.map` alone types as `TUnion<TLiteral<A | B>[]>`, which
 * TypeBox's StaticDecode (what Elysia types handlers with) turns into `never`.
 */
export const oneOf = <const T extends readonly string[]>(
  values: T,
  options: { description?: string; examples?: string[] } = {},
): TUnion<LiteralTuple<T>> =>
  t.Union(
    values.map((value) => t.Literal(value)),
    options,
  ) as unknown as TUnion<LiteralTuple<T>>;

/** A string documented as one of `values` but typed and checked as any string: for answers whose view types the field as `string`. */
export const enumText = (values: readonly string[], options: { description?: string; examples?: string[] } = {}) =>
  t.String({ enum: [...values], ...options });

export const isoTime = (description?: string) =>
  t.String({ format: "date-time", examples: ["2026-01-15T09:00:00.000Z"], ...(description ? { description } : {}) });

export const nullableIsoTime = (description?: string) => t.Nullable(isoTime(), description ? { description } : {});

/** A prefixed, time-sortable Parley id (DESIGN §3), with an example a reader recognises. */
export const idOf = (prefix: string, description?: string) =>
  t.String({ examples: [`${prefix}_01jz4k8m2q9wz7xr3t5v6b8c0d`], ...(description ? { description } : {}) });

export const nullableString = (description?: string) => t.Nullable(t.String(), description ? { description } : {});

/** A cursor page (src/lib/page.ts): `?limit=&cursor=` with `next_cursor` from the previous page. */
export const pageOf = <T extends TSchema>(item: T) =>
  t.Object({
    data: t.Array(item),
    next_cursor: t.Nullable(t.String(), {
      description: "Send as ?cursor= to get the next page; null on the last page.",
    }),
  });

/** The answer of a DELETE: which object went. */
export const deletedResponse = (idField: string, prefix: string) =>
  t.Object({ ok: t.Literal(true), [idField]: idOf(prefix), deleted: t.Literal(true) });

/** A message's author_name (src/frontdesk/session-view.ts shownAuthorName): the transcript's and the inbox preview's. */
export const authorName = t.Nullable(
  t.String({
    description:
      "An operator message's author as named when it was sent; null for visitor and bot messages, or when the operator had no display name.",
    examples: ["Ana"],
  }),
);

/** A transcript message (src/chat/sessions.ts toMessageView). */
export const messageView = t.Object({
  message_id: idOf("msg"),
  role: oneOf(MESSAGE_ROLES, { description: "Who wrote it." }),
  text: t.String(),
  quick_replies: t.Optional(t.Array(t.String(), { description: "Buttons offered with a bot message." })),
  author_name: authorName,
  created_at: isoTime(),
});

/** A chat session (src/chat/sessions.ts toSessionView). */
export const sessionView = t.Object({
  session_id: idOf("ses"),
  chatbot_id: idOf("bot"),
  channel: t.String({ description: "widget, api or whatsapp", examples: ["widget"] }),
  status: oneOf(SESSION_STATUSES, {
    description: "bot: the bot answers; handoff: waiting for or talking to an operator; closed.",
  }),
  origin: nullableString("The web page origin of a widget session."),
  visitor_ref: nullableString("The channel's visitor reference (a WhatsApp number), if any."),
  message_count: t.Integer({ minimum: 0 }),
  handoff_reason: nullableString(
    "Why the bot handed the session over (keyword, complaint, low_confidence, urgent, operator, assistant).",
  ),
  created_at: isoTime(),
  updated_at: isoTime(),
  closed_at: nullableIsoTime(),
});
