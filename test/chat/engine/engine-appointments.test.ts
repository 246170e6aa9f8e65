import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { checkSlot } from "../../../src/chat/engine/parse-appointment.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse, NOW_MS } from "./conversation.ts";

// Dental clinic in America/New_York; NOW_MS is Thursday 15 January 2026, 04:00 there.
const DENTAL = configForSector("dental-clinic");
const MONDAY_10AM = Date.UTC(2026, 0, 19, 15, 0);
const THIRTY_MINUTES = 30 * 60_000;

describe("booking an appointment", () => {
  test("a valid time is offered, confirmed, and booked once name and phone are known", () => {
    const chat = converse(DENTAL, [
      "I'd like to book an appointment",
      "Monday at 10am",
      "yes",
      "Ana Lopez",
      "(415) 555-0132",
    ]);
    expect(chat.outputs[0]?.reply.quick_replies).toHaveLength(3);
    expect(chat.outputs[1]?.reply).toEqual({
      text: "Mon, Jan 19, 10:00 AM (New York time) is available. Shall I book it for you?",
      quick_replies: ["Yes, book it", "Pick another time"],
    });
    expect(chat.outputs[2]?.reply.text).toMatch(/to hold Mon, Jan 19, 10:00 AM.*your name/);
    expect(chat.outputs[3]?.reply.text).toContain("phone number");
    expect(chat.outputs[4]?.reply.text).toContain("You're booked in for Mon, Jan 19, 10:00 AM (New York time), Ana!");
    expect(chat.actions).toEqual([
      {
        type: "appointment_booked",
        startMs: MONDAY_10AM,
        endMs: MONDAY_10AM + THIRTY_MINUTES,
        name: "Ana Lopez",
        phone: "+14155550132",
        confidence: 0.95,
      },
    ]);
    expect(chat.state.bookedStartMs).toBe(MONDAY_10AM);
  });

  test("contact details already known are attached and not asked for again", () => {
    const chat = converse(DENTAL, [
      "I'm Ana Lopez, 415-555-0132, ana@example.com",
      "Can I come in tomorrow at 10am?",
      "yes",
    ]);
    const booked = actionsOfType(chat.actions, "appointment_booked");
    expect(booked).toEqual([
      {
        type: "appointment_booked",
        startMs: Date.UTC(2026, 0, 16, 15, 0),
        endMs: Date.UTC(2026, 0, 16, 15, 30),
        name: "Ana Lopez",
        phone: "+14155550132",
        email: "ana@example.com",
        confidence: 0.95,
      },
    ]);
    expect(chat.outputs[2]?.actions).toHaveLength(1);
  });

  test("giving the e-mail during a booking also completes the lead, once", () => {
    const chat = converse(DENTAL, ["Monday at 10am", "yes", "Ana Lopez, ana@example.com", "415 555 0132"]);
    expect(chat.outputs[3]?.actions.map((action) => action.type)).toEqual(["appointment_booked", "lead_captured"]);
    expect(actionsOfType(chat.actions, "lead_captured")[0]?.interest).toBe(
      "Appointment on Mon, Jan 19, 10:00 AM (New York time)",
    );
  });

  test("a time in the past is refused with the nearest free times as quick replies", () => {
    const chat = converse(DENTAL, ["Can I come in yesterday at 3pm?"]);
    const output = chat.outputs[0];
    expect(output?.reply.text).toMatch(/Wed, Jan 14, 3:00 PM \(New York time\) has already passed/);
    expect(output?.reply.quick_replies).toEqual([
      "Thu, Jan 15, 8:00 AM",
      "Thu, Jan 15, 8:30 AM",
      "Thu, Jan 15, 9:00 AM",
    ]);
    expect(chat.actions).toEqual([]);
    expect(chat.state.mode).toBe("booking");
  });

  test("a closed day is refused with the nearest open slots", () => {
    const chat = converse(DENTAL, ["book me in on Sunday at 10am"]);
    expect(chat.last).toMatch(/We're closed on Sundays/);
    expect(chat.outputs[0]?.reply.quick_replies).toEqual([
      "Sat, Jan 17, 12:00 PM",
      "Sat, Jan 17, 12:30 PM",
      "Mon, Jan 19, 8:00 AM",
    ]);
  });

  test("a time after closing is refused with the hours of that day", () => {
    const chat = converse(DENTAL, ["Can I book Friday at 4pm?"]);
    expect(chat.last).toMatch(
      /On Fridays we're open 8 am–2 pm, so Fri, Jan 16, 4:00 PM \(New York time\) is outside our hours/,
    );
    expect(chat.outputs[0]?.reply.quick_replies).toEqual([
      "Fri, Jan 16, 12:30 PM",
      "Fri, Jan 16, 1:00 PM",
      "Fri, Jan 16, 1:30 PM",
    ]);
  });

  test("a taken slot is refused, and a proposed slot tapped as a quick reply can be booked", () => {
    const taken = [MONDAY_10AM];
    const chat = converse(
      DENTAL,
      [
        "Monday at 10am please",
        "Mon, Jan 19, 10:30 AM",
        "Yes, book it",
        "my name is Ana Lopez and my number is 415 555 0132",
      ],
      {
        takenSlotStarts: taken,
      },
    );
    expect(chat.outputs[0]?.reply.text).toMatch(/Mon, Jan 19, 10:00 AM \(New York time\) is already taken/);
    const proposals = chat.outputs[0]?.reply.quick_replies ?? [];
    expect(proposals).toEqual(["Mon, Jan 19, 9:00 AM", "Mon, Jan 19, 9:30 AM", "Mon, Jan 19, 10:30 AM"]);
    expect(actionsOfType(chat.actions, "appointment_booked")[0]?.startMs).toBe(MONDAY_10AM + THIRTY_MINUTES);
  });

  test("a slot taken by someone else before the visitor says yes is not booked", () => {
    const offered = converse(DENTAL, ["Monday at 10am"]);
    const chat = converse(DENTAL, ["yes"], { state: offered.state, takenSlotStarts: [MONDAY_10AM] });
    expect(chat.last).toMatch(/already taken/);
    expect(chat.actions).toEqual([]);
    for (const label of chat.outputs[0]?.reply.quick_replies ?? []) expect(label).not.toBe("Mon, Jan 19, 10:00 AM");
  });

  test("a slot taken while the visitor typed their details is not booked", () => {
    const collecting = converse(DENTAL, ["Monday at 10am", "yes", "Ana Lopez"]);
    expect(collecting.state.awaiting).toBe("phone");
    const chat = converse(DENTAL, ["415 555 0132"], { state: collecting.state, takenSlotStarts: [MONDAY_10AM] });
    expect(chat.last).toMatch(/already taken/);
    expect(chat.actions).toEqual([]);
    expect(chat.state.lead.phone).toBe("+14155550132");
  });

  test("a time that is not a slot start is refused and the proposals are all bookable", () => {
    const chat = converse(DENTAL, ["Monday at 10:15am"]);
    expect(chat.last).toMatch(/start every 30 minutes/);
    const reply = chat.outputs[0]?.reply;
    expect(reply?.quick_replies).toEqual(["Mon, Jan 19, 9:30 AM", "Mon, Jan 19, 10:00 AM", "Mon, Jan 19, 10:30 AM"]);
    expect(checkSlot({ startMs: MONDAY_10AM, config: DENTAL, nowMs: NOW_MS, takenStarts: [] })).toEqual({ ok: true });
  });

  test("a booking across the spring clock change lands at 3 pm local summer time", () => {
    const beforeChange = Date.UTC(2026, 2, 5, 15, 0); // Thursday 5 March, 10:00 EST
    const chat = converse(DENTAL, ["Can I book March 10 at 3pm?", "yes", "Ana", "415 555 0132"], {
      nowMs: beforeChange,
    });
    expect(chat.outputs[0]?.reply.text).toContain("Tue, Mar 10, 3:00 PM (New York time) is available");
    expect(actionsOfType(chat.actions, "appointment_booked")[0]?.startMs).toBe(Date.UTC(2026, 2, 10, 19, 0));
  });

  test("picking another time offers other slots and a plain no books nothing", () => {
    const chat = converse(DENTAL, ["Monday at 10am", "Pick another time", "no"]);
    expect(chat.outputs[1]?.reply.text).toMatch(/which day and time would suit you better/);
    expect(chat.outputs[1]?.reply.quick_replies).not.toContain("Mon, Jan 19, 10:00 AM");
    expect(chat.outputs[2]?.reply.text).toMatch(/won't book anything/);
    expect(chat.actions).toEqual([]);
    expect(chat.state.pendingStartMs).toBeNull();
  });

  test("a question while a slot awaits confirmation is answered and the offer repeated", () => {
    const chat = converse(DENTAL, ["Monday at 10am", "what is your cancellation policy?", "yes"]);
    expect(chat.outputs[1]?.reply.text).toMatch(/24 hours' notice[\s\S]*Shall I book Mon, Jan 19, 10:00 AM/);
    expect(chat.outputs[2]?.reply.text).toMatch(/your name/);
  });

  test("a day without a time offers that day's free slots from opening time", () => {
    const chat = converse(DENTAL, ["Can I book an appointment next Monday?"]);
    expect(chat.last).toMatch(/Here's what I have on Monday, January 19/);
    expect(chat.outputs[0]?.reply.quick_replies).toEqual([
      "Mon, Jan 19, 8:00 AM",
      "Mon, Jan 19, 8:30 AM",
      "Mon, Jan 19, 9:00 AM",
    ]);
  });

  test("a bare time after talking about a day means that day", () => {
    const chat = converse(DENTAL, [
      "Can I book an appointment next Monday?",
      "10am works",
      "yes",
      "Ana",
      "415 555 0132",
    ]);
    expect(chat.outputs[1]?.reply.text).toMatch(/Mon, Jan 19, 10:00 AM \(New York time\) is available/);
    expect(actionsOfType(chat.actions, "appointment_booked")[0]?.startMs).toBe(MONDAY_10AM);
  });

  test("a closed day asked for without a time is refused with the nearest open slots", () => {
    const chat = converse(DENTAL, ["I'd like an appointment on Sunday"]);
    expect(chat.last).toMatch(/We're closed on Sundays/);
    expect(chat.outputs[0]?.reply.quick_replies).toHaveLength(3);
  });

  test("with appointments disabled, booking words lead to a call-back request instead", () => {
    const noBookings = validateBotConfigPatch({ appointments: { enabled: false } }, DENTAL);
    const chat = converse(noBookings, ["I want to book an appointment for Monday at 10am"]);
    expect(chat.last).toMatch(/don't take bookings in this chat.*your name/);
    expect(chat.state.mode).toBe("collecting_lead");
  });
});
