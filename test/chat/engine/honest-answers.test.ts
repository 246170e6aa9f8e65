import { describe, expect, test } from "bun:test";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse } from "./conversation.ts";

const DENTAL = configForSector("dental-clinic");
const CARS = configForSector("car-service");
/** Thursday 15 January 2026, 10:00 in New York and 09:00 in Chicago: both open. */
const OPEN_MS = Date.UTC(2026, 0, 15, 15, 0);

describe("a question the FAQ does not answer", () => {
  test("'do you accept medicaid?' is not answered with the new-patients entry", () => {
    const chat = converse(DENTAL, ["do you accept medicaid?"], { nowMs: OPEN_MS });
    expect(chat.last).not.toContain("new patients");
    expect(chat.last).not.toMatch(/^Yes/);
    expect(chat.last).toContain("I don't have that information");
    expect(chat.outputs[0]?.reply.quick_replies).toContain("Talk to a person");
  });

  test("'do you work on electric cars like teslas?' is not answered with the shuttle entry", () => {
    const chat = converse(CARS, ["do you work on electric cars like teslas?"], { nowMs: OPEN_MS });
    expect(chat.last).not.toContain("shuttle");
    expect(chat.last).toContain("I don't have that information");
  });

  test("in opening hours a yes to the offered person hands off", () => {
    const chat = converse(DENTAL, ["do you accept medicaid?", "yes please"], { nowMs: OPEN_MS });
    expect(chat.last).toContain("asked a member of our team");
    expect(actionsOfType(chat.actions, "handoff")).toHaveLength(1);
  });

  test("out of hours the bot offers to take a message, and a yes starts taking it", () => {
    const chat = converse(DENTAL, ["do you accept medicaid?", "yes"]);
    expect(chat.outputs[0]?.reply.text).toContain("leave them a message");
    expect(chat.last).toContain("Could I get your name");
    expect(actionsOfType(chat.actions, "handoff")).toHaveLength(0);
  });

  test("the entries it does know are still answered", () => {
    expect(converse(DENTAL, ["which insurance do you accept?"]).last).toContain("Delta Dental");
    expect(converse(DENTAL, ["are you accepting new patients?"]).last).toContain("new patients of all ages");
    expect(converse(CARS, ["do you have a loaner car?"]).last).toContain("shuttle");
  });
});

describe("an answer never opens with a yes the question did not earn", () => {
  test("'does teeth whitening hurt?' gets the whitening facts without 'Yes'", () => {
    const chat = converse(DENTAL, ["does teeth whitening hurt?"]);
    expect(chat.last).toStartWith("In-office whitening takes about 90 minutes");
  });

  test("'do you offer teeth whitening?' keeps its yes", () => {
    expect(converse(DENTAL, ["do you offer teeth whitening?"]).last).toStartWith("Yes. In-office whitening");
  });

  test("a report of pain is not a question: the urgent answer drops its 'Yes.'; asked as a question it keeps it", () => {
    expect(converse(DENTAL, ["I fell and chipped my tooth"]).last).toStartWith(
      "For severe pain, swelling or a broken tooth",
    );
    expect(converse(DENTAL, ["my tooth is broken, can you see me today?"]).last).toStartWith("Yes. For severe pain");
    const spanish = { ...DENTAL, languages: ["en", "pt", "es"] as ("en" | "pt" | "es")[] };
    expect(converse(spanish, ["me duele mucho la muela"]).last).toStartWith("Si tienes dolor fuerte");
  });

  test("a typo is not a new topic: 'do you do gel nals?' keeps the yes", () => {
    expect(converse(configForSector("beauty-salon"), ["do you do gel nals?"]).last).toStartWith("Yes");
  });
});
