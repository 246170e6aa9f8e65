import type { BotConfig } from "../chat/engine/bot-config.ts";
import { checkSlot, proposeSlots, type SlotRefusal } from "../chat/engine/appointment-slots.ts";
import { normalizeEmailAddress, normalizePhoneNumber } from "../chat/engine/contact-validation.ts";
import type { EngineAction } from "../chat/engine/engine-types.ts";
import { epochFromWallClock, wallClockAt } from "../chat/engine/timezone.ts";
import { teamAvailability } from "../chat/engine/team-hours.ts";
import { parseJsonText } from "../lib/safe-json.ts";
import type { ChatToolCall, ToolDefinition } from "./openai-client.ts";

/**
 * The model's tools. Each validates its arguments with the rule engine's own rules (contact
 * validation, slot checks) and, when they hold, yields the same EngineAction the rule engine
 * would; the caller persists it through applyAction. Nothing here writes: tools run while the
 * model call is in flight, outside any transaction. Tenant, session and chatbot never come
 * from the arguments — the schemas do not even have such fields, and extra keys are refused.
 *
 * Confidence (documented in docs/assistant.md): 0.95 when every contact value the model passed
 * appears in what the visitor typed in this session, 0.6 when one does not (the model may have
 * inferred or invented it); a hand-off is 0.9 when the visitor's own message asked for a person
 * (a hand-off keyword), else 0.7 (the model decided it could not help).
 */

export const TOOL_NAMES = ["capture_lead", "book_appointment", "handoff"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolContext {
  config: BotConfig;
  nowMs: number;
  /** Booked starts; a booking made earlier in this turn is added so the model cannot double-book. */
  takenSlotStarts: number[];
  /** Everything the visitor wrote in this session, current message included. */
  visitorText: string;
  /** Tools that already produced an action this turn: each acts at most once per turn. */
  done: Set<ToolName>;
}

export interface ToolOutcome {
  /** JSON text returned to the model as the tool message. */
  result: string;
  action?: EngineAction;
}

const LOCAL_ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::00(?:\.0+)?)?$/;

const CONTACT_PROPERTIES = {
  name: { type: "string", description: "The visitor's name, as they gave it." },
  phone: { type: "string", description: "The visitor's phone number, as they gave it." },
  email: { type: "string", description: "The visitor's e-mail address." },
};

export function toolDefinitions(config: BotConfig): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  if (config.lead.enabled) {
    tools.push(
      tool(
        "capture_lead",
        "Record the visitor as a lead once they have given their name, phone number and e-mail address and want to be contacted.",
        {
          properties: {
            ...CONTACT_PROPERTIES,
            interest: { type: "string", description: "What they are interested in, in a few words." },
          },
          required: ["name", "phone", "email", "interest"],
        },
      ),
    );
  }
  if (config.appointments.enabled) {
    tools.push(
      tool(
        "book_appointment",
        `Book an appointment slot. Only call this after the visitor agreed to a specific time. Times are local to ${config.appointments.timezone}.`,
        {
          properties: {
            start: { type: "string", description: "Local start time in the business's time zone, YYYY-MM-DDTHH:MM." },
            ...CONTACT_PROPERTIES,
          },
          required: ["start"],
        },
      ),
    );
  }
  tools.push(
    tool(
      "handoff",
      "Hand the conversation to a human team member: when the visitor asks for a person, or you cannot answer from the material you were given.",
      {
        properties: { reason: { type: "string", description: "Why a person should take over, in one sentence." } },
        required: ["reason"],
      },
    ),
  );
  return tools;
}

function tool(
  name: ToolName,
  description: string,
  schema: { properties: Record<string, unknown>; required: string[] },
): ToolDefinition {
  return {
    type: "function",
    function: { name, description, parameters: { type: "object", ...schema, additionalProperties: false } },
  };
}

export const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

const refuse = (error: string, details: Record<string, unknown> = {}): ToolOutcome => ({
  result: JSON.stringify({ ok: false, error, ...details }),
});

/** Runs one tool call of a known tool. Bad arguments come back as a corrective result, never an exception. */
export function runTool(call: ChatToolCall, name: ToolName, context: ToolContext): ToolOutcome {
  let args: unknown;
  try {
    args = parseJsonText(call.function.arguments || "{}");
  } catch {
    return refuse("invalid_arguments", { problems: ["arguments are not valid JSON (or nest too deeply)"] });
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return refuse("invalid_arguments", { problems: ["arguments must be a JSON object"] });
  if (context.done.has(name))
    return refuse("already_done", { message: `${name} already succeeded in this turn; do not call it again.` });
  const input = args as Record<string, unknown>;
  const outcome =
    name === "capture_lead"
      ? captureLead(input, context)
      : name === "book_appointment"
        ? bookAppointment(input, context)
        : handoff(input, context);
  if (outcome.action) context.done.add(name);
  return outcome;
}

/** The argument names a tool does not take: refused, so a model cannot smuggle a session or tenant id in. */
const unknownFields = (input: Record<string, unknown>, known: readonly string[]): string[] =>
  Object.keys(input).filter((key) => !known.includes(key));

function text(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim().length > 0 && value.trim().length <= max ? value.trim() : null;
}

interface Contact {
  name?: string;
  phone?: string;
  email?: string;
}

/** Validates whichever contact fields are present (all when `required`); problems are phrased for the model. */
function validateContact(
  input: Record<string, unknown>,
  config: BotConfig,
  required: boolean,
  problems: string[],
): Contact {
  const contact: Contact = {};
  const name = input.name === undefined && !required ? undefined : text(input.name, 100);
  if (name === null) problems.push("name: ask the visitor for their name");
  else if (name !== undefined) contact.name = name;
  if (input.phone !== undefined || required) {
    const phone =
      typeof input.phone === "string" ? normalizePhoneNumber(input.phone, config.lead.default_country) : null;
    if (phone === null)
      problems.push(
        `phone: not a valid phone number (default country ${config.lead.default_country}); ask the visitor for it again, with the country code if abroad`,
      );
    else contact.phone = phone;
  }
  if (input.email !== undefined || required) {
    const email = typeof input.email === "string" ? normalizeEmailAddress(input.email) : null;
    if (email === null) problems.push("email: not a valid e-mail address; ask the visitor to check it");
    else contact.email = email;
  }
  return contact;
}

/** 0.95 when the visitor typed every value the model passed, 0.6 otherwise (see the file comment). */
function contactConfidence(contact: Contact, visitorText: string): number {
  const typed = visitorText.toLowerCase();
  const digits = visitorText.replace(/\D/g, "");
  const seen = [
    contact.name === undefined || typed.includes(contact.name.toLowerCase()),
    contact.email === undefined || typed.includes(contact.email),
    // The national part of the E.164 number: the visitor may have typed it without the country code.
    contact.phone === undefined || digits.includes(contact.phone.replace(/\D/g, "").slice(-7)),
  ];
  return seen.every(Boolean) ? 0.95 : 0.6;
}

function captureLead(input: Record<string, unknown>, context: ToolContext): ToolOutcome {
  const problems: string[] = [];
  const unknown = unknownFields(input, ["name", "phone", "email", "interest"]);
  if (unknown.length > 0) problems.push(`unknown fields: ${unknown.join(", ")}`);
  const contact = validateContact(input, context.config, true, problems);
  const interest =
    input.interest === undefined ? "" : typeof input.interest === "string" ? input.interest.trim().slice(0, 200) : null;
  if (interest === null) problems.push("interest: must be text");
  if (problems.length > 0 || !contact.name || !contact.phone || !contact.email || interest === null)
    return refuse("invalid_arguments", { problems });
  const confidence = contactConfidence(contact, context.visitorText);
  return {
    result: JSON.stringify({ ok: true, message: "Lead recorded; the team will get in touch." }),
    action: {
      type: "lead_captured",
      name: contact.name,
      phone: contact.phone,
      email: contact.email,
      interest,
      confidence,
    },
  };
}

/** "2026-01-20T10:00" in the tenant's zone → epoch ms; null when it is not that shape or not a real date. */
export function parseLocalStart(value: unknown, timeZone: string): number | null {
  if (typeof value !== "string") return null;
  const match = LOCAL_ISO.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return epochFromWallClock({ year, month, day, hour, minute }, timeZone);
}

export function formatLocalIso(epochMs: number, timeZone: string): string {
  const wall = wallClockAt(epochMs, timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

const SLOT_REFUSALS: Record<SlotRefusal, string> = {
  past: "that time is in the past",
  too_soon: "that is too soon; bookings need more notice",
  closed: "the business is closed then",
  taken: "that slot is already booked",
  too_far: "that is too far ahead",
  misaligned: "appointments start on the slot grid (see nearest_free_slots)",
};

function bookAppointment(input: Record<string, unknown>, context: ToolContext): ToolOutcome {
  const { config, nowMs } = context;
  const settings = config.appointments;
  const unknown = unknownFields(input, ["start", "name", "phone", "email"]);
  if (unknown.length > 0) return refuse("invalid_arguments", { problems: [`unknown fields: ${unknown.join(", ")}`] });
  const startMs = parseLocalStart(input.start, settings.timezone);
  if (startMs === null)
    return refuse("invalid_arguments", { problems: ["start: must be a local date-time YYYY-MM-DDTHH:MM"] });
  const problems: string[] = [];
  const contact = validateContact(input, config, false, problems);
  if (problems.length > 0) return refuse("invalid_arguments", { problems });
  const check = checkSlot({ startMs, config, nowMs, takenStarts: context.takenSlotStarts });
  if (!check.ok) {
    const nearest = proposeSlots(startMs, config, nowMs, context.takenSlotStarts).map((slot) =>
      formatLocalIso(slot, settings.timezone),
    );
    return refuse("slot_unavailable", {
      reason: check.reason,
      message: `${SLOT_REFUSALS[check.reason]}; offer the visitor one of nearest_free_slots`,
      nearest_free_slots: nearest,
    });
  }
  context.takenSlotStarts.push(startMs);
  return {
    result: JSON.stringify({
      ok: true,
      message: "Booked.",
      start: formatLocalIso(startMs, settings.timezone),
      timezone: settings.timezone,
    }),
    action: {
      type: "appointment_booked",
      startMs,
      endMs: startMs + settings.slot_minutes * 60_000,
      ...contact,
      confidence: contactConfidence(contact, context.visitorText),
    },
  };
}

/** The model decided it could not help: a visitor who asks for a person is handed over before the model is asked. */
const MODEL_HANDOFF_CONFIDENCE = 0.7;

function handoff(input: Record<string, unknown>, context: ToolContext): ToolOutcome {
  const unknown = unknownFields(input, ["reason"]);
  if (unknown.length > 0) return refuse("invalid_arguments", { problems: [`unknown fields: ${unknown.join(", ")}`] });
  if (input.reason !== undefined && typeof input.reason !== "string")
    return refuse("invalid_arguments", { problems: ["reason: must be text"] });
  // Out of hours the model must not promise a person now: the chat waits in the inbox for the team's return.
  const team = teamAvailability(context.config, context.nowMs);
  const message =
    !team.withinBusinessHours && team.backAt !== null
      ? "The team is away now (outside business hours): the conversation waits for them. Tell the visitor nobody can reply right now, and ask them to leave their name, phone or e-mail and their question here for the team to see first thing."
      : "A team member will take over this conversation; tell the visitor so.";
  return {
    result: JSON.stringify({ ok: true, message }),
    action: { type: "handoff", reason: "assistant", confidence: MODEL_HANDOFF_CONFIDENCE },
  };
}
