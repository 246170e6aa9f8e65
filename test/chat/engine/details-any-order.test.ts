import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");
const CARS = configForSector("car-service");
const BOOK = "can I book tuesday at 12pm?";

describe("details given in answer to an open booking offer", () => {
  test("name, then phone, then e-mail: booked with the name and phone, then the lead is saved", () => {
    const chat = converse(DENTAL, [BOOK, "Ana Lopez", "+1 212 555 0187", "ana@example.com"]);
    expect(chat.outputs[1]?.reply.text).toContain("to hold Tue, Jan 20, 12:00 PM");
    expect(chat.outputs[1]?.reply.text).not.toContain("Could I get your name");
    const [booking] = actionsOfType(chat.actions, "appointment_booked");
    expect(booking).toMatchObject({ name: "Ana Lopez", phone: "+12125550187" });
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ name: "Ana Lopez", phone: "+12125550187", email: "ana@example.com" }),
    ]);
    expect(chat.outputs.filter((output) => output.reply.text.includes("Could I get your name"))).toHaveLength(0);
  });

  test("phone first, then the name: the name is asked once and the booking made", () => {
    const chat = converse(DENTAL, [BOOK, "+1 212 555 0187", "Ana Lopez"]);
    expect(chat.outputs[1]?.reply.text).toContain("Could I get your name");
    expect(chat.last).toContain("You're booked in for Tue, Jan 20, 12:00 PM");
  });

  test("e-mail first, then name and phone in one message: booked and the lead saved in that turn", () => {
    const chat = converse(DENTAL, [BOOK, "ana@example.com", "Ana Lopez, 212 555 0187"]);
    expect(chat.outputs[2]?.actions.map((action) => action.type)).toEqual(["appointment_booked", "lead_captured"]);
  });

  test("a one-word reply that is no name ('any later?') still moves the booking on, not into a form", () => {
    const chat = converse(DENTAL, [BOOK, "any later?"]);
    expect(chat.state.lead.name).toBeNull();
    expect(chat.last).toContain("12:30 PM");
  });
});

describe("details in any order in a lead form or unprompted", () => {
  test("e-mail, then 'my name is', then the phone: one lead with all three", () => {
    const chat = converse(CARS, [
      "i need a quote for brakes",
      "ana@example.com",
      "my name is Ana Lopez",
      "312 555 0142",
    ]);
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ name: "Ana Lopez", phone: "+13125550142", email: "ana@example.com" }),
    ]);
  });

  test("all three unprompted in one message with a question: the answer, then the thanks", () => {
    const chat = converse(DENTAL, ["Hi I'm Ana Lopez, ana@example.com, 212 555 0187 — I'd like a quote for braces"]);
    expect(chat.last).toContain("fixed braces (from $4,000)");
    expect(actionsOfType(chat.actions, "lead_captured")).toHaveLength(1);
  });
});

describe("a visitor who would rather not give a phone number", () => {
  const DECLINE = "I'd rather not give my phone number, can you just email me?";

  test("where the tenant allows it (dental template) the phone is skipped and the lead taken with the e-mail", () => {
    const chat = converse(DENTAL, ["i want a quote for invisalign", "Ana Lopez", DECLINE, "ana@example.com"]);
    expect(chat.outputs[2]?.reply.text).toContain("reply by e-mail");
    expect(chat.outputs[2]?.reply.text).toContain("your e-mail address");
    expect(chat.outputs[2]?.reply.text).not.toContain("phone number to reach you");
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ name: "Ana Lopez", phone: "", email: "ana@example.com" }),
    ]);
    expect(chat.last).toContain("reply to you at ana@example.com");
  });

  test("where the tenant requires a phone (car template) the bot says why and stops asking", () => {
    const chat = converse(CARS, ["i need a quote for brakes", "Ana Lopez", DECLINE]);
    expect(chat.last).toContain("needs a phone number");
    expect(chat.last).not.toContain("What's the best phone number");
    expect(chat.state.mode).toBe("idle");
    expect(chat.state.lead.name).toBe("Ana Lopez");
  });

  test("a booking where the tenant allows it is held with the name and e-mail", () => {
    const chat = converse(DENTAL, [BOOK, "yes", "Ana Lopez", "no phone please, just email me", "ana@example.com"]);
    expect(actionsOfType(chat.actions, "appointment_booked")).toEqual([
      expect.objectContaining({ name: "Ana Lopez", email: "ana@example.com" }),
    ]);
  });

  test("require_phone is validated as a boolean", () => {
    expect(validateBotConfigPatch({ lead: { require_phone: true } }, DENTAL).lead.require_phone).toBe(true);
    expect(() => validateBotConfigPatch({ lead: { require_phone: "no" } }, DENTAL)).toThrow(/lead.require_phone/);
  });
});

describe("a phone declined before it was asked for", () => {
  test("'a quote for whitening, but just email me': the name, then the e-mail, never the phone", () => {
    const chat = converse(DENTAL, [
      "can i get a quote for whitening? please just email me",
      "Ana Lopez",
      "ana@example.com",
    ]);
    expect(chat.outputs[1]?.reply.text).toContain("your e-mail address");
    expect(chat.outputs.some((output) => output.reply.text.includes("phone number to reach you"))).toBe(false);
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ phone: "", email: "ana@example.com" }),
    ]);
  });

  test("where a phone is required the form stops when it comes to the phone, saying why", () => {
    const chat = converse(CARS, ["can i get a quote for brakes? please just email me", "Ana Lopez"]);
    expect(chat.last).toContain("needs a phone number");
    expect(chat.state.mode).toBe("idle");
  });
});
