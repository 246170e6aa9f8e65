import { describe, expect, test } from "bun:test";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse, withoutHours } from "./conversation.ts";

const inThreeLanguages = (sector: string) =>
  validateBotConfigPatch({ languages: ["en", "pt", "es"] }, configForSector(sector));

describe("complaints and requests for the manager hand the chat to a person", () => {
  const cases: Array<[string, string, string, "keyword" | "complaint", RegExp]> = [
    ["dental-clinic", "en", "this is ridiculous, i want to talk to the manager", "complaint", /I'm sorry about this/],
    [
      "dental-clinic",
      "en",
      "I was charged twice and I want a refund, this is unacceptable",
      "complaint",
      /I'm sorry about this/,
    ],
    ["car-service", "en", "can i speak to someone real?", "keyword", /asked a member of our team/],
    ["beauty-salon", "pt", "quero falar com o gerente", "keyword", /pedi para alguém da nossa equipe/],
    ["dental-clinic", "pt", "isso é um absurdo, quero meu dinheiro de volta", "complaint", /Sinto muito/],
    ["car-service", "es", "quiero hablar con el encargado", "keyword", /he pedido a alguien de nuestro equipo/],
    ["beauty-salon", "es", "esto es inaceptable, exijo un reembolso", "complaint", /Lamento mucho/],
  ];
  for (const [sector, lang, message, reason, reply] of cases) {
    test(`${sector} (${lang}): "${message}" → hand-off (${reason})`, () => {
      // No hours: this is about the words of each reason, not when the team is in.
      const chat = converse(withoutHours(inThreeLanguages(sector)), [message]);
      expect(actionsOfType(chat.actions, "handoff")).toEqual([expect.objectContaining({ reason })]);
      expect(chat.last).toMatch(reply);
    });
  }

  test("a complaint in the middle of a lead form hands off and keeps the details", () => {
    const chat = converse(configForSector("dental-clinic"), [
      "I'd like a quote for implants",
      "Ana Lopez",
      "this is ridiculous, nobody ever calls back",
    ]);
    expect(actionsOfType(chat.actions, "handoff")).toHaveLength(1);
    expect(chat.state.mode).toBe("idle");
    expect(chat.state.lead.name).toBe("Ana Lopez");
  });

  test("'property manager' is not a request for the manager", () => {
    const chat = converse(configForSector("real-estate"), ["do you have a property manager for rentals?"]);
    expect(actionsOfType(chat.actions, "handoff")).toHaveLength(0);
  });
});
