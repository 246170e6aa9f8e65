import { t } from "elysia";
import { authorName, idOf, isoTime, nullableIsoTime, nullableString, oneOf, sessionView } from "../response-schemas.ts";
import { MESSAGE_ROLES } from "../../db/schema.ts";

/** A chat as the inbox shows it (src/frontdesk/inbox-view.ts InboxChat). */
export const inboxChatView = t.Composite([
  sessionView,
  t.Object({
    preview: t.Nullable(
      t.Object({ role: oneOf(MESSAGE_ROLES), text: t.String(), author_name: authorName, created_at: isoTime() }),
      { description: "The newest message." },
    ),
    visitor_name: nullableString("The name the bot captured (the lead's), if any."),
    lead: t.Nullable(t.Object({ name: t.String(), email: t.String(), phone: t.String({ description: "E.164" }) })),
    appointment: t.Nullable(t.Object({ starts_at: isoTime(), timezone: t.String({ examples: ["Europe/London"] }) })),
    language: nullableString("The visitor's language as the bot last detected it (en, pt, es)."),
    page_url: nullableString("The page the visitor opened the chat on."),
    handoff_at: nullableIsoTime("When the chat was handed to a person."),
    waiting_since: nullableIsoTime(
      "The visitor's oldest message since the hand-off that no person answered yet; null when nobody waits.",
    ),
    waiting_seconds: t.Nullable(t.Integer({ minimum: 0 })),
    within_business_hours: t.Nullable(
      t.Boolean({
        description:
          "Whether the hand-off came within business hours (false: the visitor left a message for the team's return); null when a person took the chat over without one.",
      }),
    ),
    unread: t.Integer({
      minimum: 0,
      description: "The visitor's messages the caller has not opened (POST /inbox/chats/:id/read).",
    }),
    assigned_to: t.Nullable(
      t.Object({ user_id: idOf("usr"), display_name: nullableString(), assigned_at: isoTime() }),
      { description: "Who has the chat (Take); null: nobody yet." },
    ),
  }),
]);
