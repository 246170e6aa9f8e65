import { describe, expect, test } from "bun:test";
import type { BotConfig } from "../../../src/chat/engine/bot-config.ts";
import { validateBotConfigPatch } from "../../../src/chat/engine/bot-config-patch.ts";
import { detectLanguage } from "../../../src/chat/engine/language.ts";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { actionsOfType, converse, OFFICE_HOURS_MS } from "./conversation.ts";

const ALL = ["en", "pt", "es"] as const;
const speaking = (sector: string): BotConfig =>
  validateBotConfigPatch({ languages: [...ALL] }, configForSector(sector));
const DENTAL = speaking("dental-clinic");
const CARS = speaking("car-service");
const SALON = speaking("beauty-salon");
const answerOf = (config: BotConfig, id: string): string =>
  config.faq.find((entry) => entry.id === id)?.answer ?? `no entry ${id}`;

describe("the visitor's language, per message", () => {
  test("stop words and letters tell the three apart", () => {
    expect(detectLanguage("Oi, quanto custa uma limpeza?", ALL, "en")).toBe("pt");
    expect(detectLanguage("hola, tienen estacionamiento?", ALL, "en")).toBe("es");
    expect(detectLanguage("¿cuánto cuesta el cambio de aceite?", ALL, "en")).toBe("es");
    expect(detectLanguage("meu carro quebrou na estrada", ALL, "en")).toBe("pt");
    expect(detectLanguage("how much is a cleaning?", ALL, "pt")).toBe("en");
  });

  test("a message without signs keeps the conversation's language; a tenant's single language is always it", () => {
    expect(detectLanguage("Ana Lopez", ALL, "pt")).toBe("pt");
    expect(detectLanguage("+1 212 555 0187", ALL, "es")).toBe("es");
    expect(detectLanguage("quanto custa?", ["en"], "en")).toBe("en");
  });

  test("languages must be a non-empty subset of en, pt and es", () => {
    expect(validateBotConfigPatch({ languages: ["es", "en", "es"] }, DENTAL).languages).toEqual(["es", "en"]);
    expect(() => validateBotConfigPatch({ languages: ["fr"] }, DENTAL)).toThrow(/languages\[0\]/);
    expect(() => validateBotConfigPatch({ languages: [] }, DENTAL)).toThrow(/languages/);
    expect(() =>
      validateBotConfigPatch({ faq: [{ id: "x", question: "q", answer: "a", language: "de" }] }, DENTAL),
    ).toThrow(/faq\[0\].language/);
  });
});

describe("Portuguese and Spanish questions get the FAQ entry in their language", () => {
  const cases: Array<[BotConfig, string, string]> = [
    [DENTAL, "Oi, quanto custa uma limpeza?", "cleaning-price-pt"],
    [CARS, "hola, tienen estacionamiento?", "location-es"],
    [CARS, "¿cuánto cuesta el cambio de aceite?", "oil-change-es"],
    [SALON, "quanto custa um corte feminino?", "haircut-prices-pt"],
    [DENTAL, "qual o horário de vocês no sábado?", "hours-pt"],
    [DENTAL, "¿aceptan seguro dental?", "insurance-es"],
    [DENTAL, "vocês fazem clareamento?", "whitening-pt"],
    [DENTAL, "¿se puede pagar en cuotas?", "financing-es"],
    [CARS, "quanto tempo demora uma revisão?", "service-duration-pt"],
    [CARS, "¿cuánto cuestan los frenos?", "brakes-es"],
    [SALON, "preciso fazer teste de alergia antes de pintar?", "patch-test-pt"],
    [SALON, "¿dónde puedo aparcar?", "location-es"],
  ];
  for (const [config, message, id] of cases) {
    test(`${config.sector}: "${message}" → ${id}`, () => {
      expect(converse(config, [message]).last).toContain(answerOf(config, id));
    });
  }

  test("the engine's own sentences follow the visitor: a Portuguese price question offers the quote in Portuguese", () => {
    const chat = converse(DENTAL, ["Oi, quanto custa uma limpeza?"]);
    expect(chat.last).toContain("Pode me dizer seu nome");
  });

  test("a greeting in Spanish gets the Spanish greeting and a menu of Spanish questions", () => {
    const output = converse(DENTAL, ["hola"]).outputs[0];
    expect(output?.reply.text).toContain("¿En qué puedo ayudarte?");
    expect(output?.reply.quick_replies).toContain("¿Cuánto cuesta una limpieza?");
    expect(output?.reply.quick_replies).toContain("Hablar con una persona");
  });

  test("a question nobody answers gets the honest answer in the visitor's language", () => {
    expect(converse(DENTAL, ["vocês atendem cachorros?"]).last).toContain("não tenho essa informação");
    expect(converse(CARS, ["¿arreglan bicicletas eléctricas?"]).last).toContain("no tengo esa información");
  });

  test("thanks and goodbye in both languages", () => {
    expect(converse(DENTAL, ["obrigado!"]).last).toContain("De nada");
    expect(converse(DENTAL, ["gracias, adiós"]).last).toContain("Gracias por escribirnos");
  });
});

describe("emergencies in Portuguese and Spanish reach the urgent answer in that language", () => {
  const cases: Array<[BotConfig, string, string, string]> = [
    [CARS, "meu carro quebrou na estrada, preciso de um guincho urgente", "breakdown-pt", "Falar com uma pessoa"],
    [CARS, "mi coche no arranca y estoy en la autopista", "breakdown-es", "Hablar con una persona"],
    [DENTAL, "estou com muita dor de dente e o rosto inchado", "emergency-pt", "Falar com uma pessoa"],
    [DENTAL, "me duele muchísimo una muela", "emergency-es", "Hablar con una persona"],
    [SALON, "tengo una reacción alérgica en la cara", "reaction-es", "Hablar con una persona"],
    [SALON, "minha pele está ardendo depois da coloração", "reaction-pt", "Falar com uma pessoa"],
  ];
  for (const [config, message, id, button] of cases) {
    test(`${config.sector}: "${message}"`, () => {
      const output = converse(config, [message]).outputs[0];
      expect(output?.reply.text).toContain(answerOf(config, id).slice(5));
      expect(output?.reply.quick_replies).toEqual([button]);
    });
  }

  test("'sim' after the offer hands off", () => {
    const chat = converse(CARS, ["meu carro quebrou na estrada", "sim"], { nowMs: OFFICE_HOURS_MS });
    expect(actionsOfType(chat.actions, "handoff")).toEqual([expect.objectContaining({ reason: "urgent" })]);
    expect(chat.last).toContain("alguém da nossa equipe");
  });
});

describe("booking and contact details in Portuguese and Spanish", () => {
  test("dental, pt: 'amanhã à tarde' offers tomorrow afternoon; 'sim', name and phone book it", () => {
    const chat = converse(DENTAL, [
      "quero marcar uma limpeza amanhã à tarde",
      "Fri, Jan 16, 1:00 PM",
      "sim",
      "meu nome é Ana Souza",
      "(212) 555-0187",
    ]);
    expect(chat.outputs[0]?.reply.quick_replies?.[0]).toBe("Fri, Jan 16, 12:00 PM");
    expect(chat.outputs[0]?.reply.text).toContain("sexta-feira, 16 de janeiro à tarde");
    expect(chat.outputs[1]?.reply.text).toContain("Posso agendar para você?");
    expect(actionsOfType(chat.actions, "appointment_booked")).toEqual([
      expect.objectContaining({ name: "Ana Souza", phone: "+12125550187" }),
    ]);
    expect(chat.last).toContain("Agendado para Fri, Jan 16, 1:00 PM");
  });

  test("car, es: 'mañana a las 3' is 3 pm tomorrow; 'sí' and the details in one message book it", () => {
    const chat = converse(CARS, [
      "quiero reservar un cambio de aceite mañana a las 3",
      "sí",
      "me llamo Luis García, 312 555 0142",
    ]);
    expect(chat.outputs[0]?.reply.text).toContain("Fri, Jan 16, 3:00 PM");
    expect(chat.outputs[1]?.reply.text).toContain("solo necesito un par de datos");
    expect(actionsOfType(chat.actions, "appointment_booked")).toEqual([
      expect.objectContaining({ name: "Luis García", phone: "+13125550142" }),
    ]);
  });

  test("salon, pt: 'sábado de manhã' offers Saturday morning times", () => {
    const chat = converse(SALON, ["queria agendar um corte no sábado de manhã"]);
    expect(chat.outputs[0]?.reply.quick_replies?.[0]).toMatch(/^Sat, Jan 17, (?:8:30|9:\d\d|10:\d\d|11:\d\d) AM$/);
    expect(chat.outputs[0]?.reply.text).toContain("sábado, 17 de janeiro de manhã");
  });

  test("dental, es: a quote with the e-mail first, then the name, then no phone", () => {
    const chat = converse(DENTAL, [
      "quiero un presupuesto de blanqueamiento",
      "luis@example.com",
      "me llamo Luis García",
      "prefiero no dar mi teléfono",
    ]);
    expect(chat.outputs[1]?.reply.text).toContain("¿Me dices tu nombre");
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ name: "Luis García", email: "luis@example.com", phone: "" }),
    ]);
    expect(chat.last).toContain("te responderán a luis@example.com");
  });

  test("car, pt: a lead with the phone asked in Portuguese and a corrected e-mail", () => {
    const chat = converse(CARS, [
      "quero um orçamento de freios",
      "Ana Souza",
      "312 555 0142",
      "ana@exemplo",
      "ana@example.com",
    ]);
    expect(chat.outputs[1]?.reply.text).toContain("Qual o melhor telefone");
    expect(chat.outputs[3]?.reply.text).toContain("e-mail");
    expect(actionsOfType(chat.actions, "lead_captured")).toEqual([
      expect.objectContaining({ name: "Ana Souza", phone: "+13125550142", email: "ana@example.com" }),
    ]);
  });
});

describe("the same visit in Portuguese and Spanish on three templates", () => {
  const VISITS = {
    pt: {
      handoff: "quero falar com um atendente",
      book: "quero agendar amanhã às 10h",
      yes: "sim",
      details: "meu nome é Ana Souza, %PHONE%",
      booked: "Agendado para",
    },
    es: {
      handoff: "quiero hablar con una persona",
      book: "quiero reservar una cita mañana a las 10",
      yes: "sí",
      details: "me llamo Ana Soto, %PHONE%",
      booked: "¡Reservado para",
    },
  } as const;
  const TEMPLATES: Array<[BotConfig, string]> = [
    [DENTAL, "212 555 0187"],
    [CARS, "312 555 0142"],
    [SALON, "0412 345 678"],
  ];
  for (const [lang, visit] of Object.entries(VISITS)) {
    for (const [config, phone] of TEMPLATES) {
      test(`${config.sector} (${lang}): a person on request; a booking tomorrow at 10 with name and phone in one message`, () => {
        expect(actionsOfType(converse(config, [visit.handoff]).actions, "handoff")).toHaveLength(1);
        const chat = converse(config, [visit.book, visit.yes, visit.details.replace("%PHONE%", phone)]);
        expect(chat.outputs[0]?.reply.text).toMatch(/Fri, Jan 16, 10:00 AM/);
        const [booking] = actionsOfType(chat.actions, "appointment_booked");
        expect(booking?.name).toMatch(/^Ana So/);
        expect(booking?.phone).toMatch(/^\+\d{10,12}$/);
        expect(chat.last).toContain(visit.booked);
      });
    }
  }
});

describe("the slot buttons in Portuguese and Spanish", () => {
  test("'Escolher outro horário' and 'Elegir otra hora' offer other times instead of stopping", () => {
    const visits: Array<[string, string]> = [
      ["quero agendar amanhã às 10h", "Escolher outro horário"],
      ["quiero reservar una cita mañana a las 10", "Elegir otra hora"],
    ];
    for (const [book, other] of visits) {
      const chat = converse(DENTAL, [book, other]);
      expect(chat.outputs[0]?.reply.quick_replies).toContain(other);
      expect(chat.state.mode).toBe("booking");
      expect(chat.last).toMatch(/Fri, Jan 16, 10:30 AM|Fri, Jan 16, 9:30 AM/);
    }
  });
});

describe("short replies while times are on offer, in Portuguese and Spanish", () => {
  test("'e às 11h?' is 11:00 on the day under discussion; 'mais tarde?' offers the same day after", () => {
    const chat = converse(DENTAL, ["quero agendar amanhã às 10h", "e às 11h?"]);
    expect(chat.last).toContain("Fri, Jan 16, 11:00 AM");
    const later = converse(DENTAL, ["quero agendar amanhã de manhã", "tem mais tarde?"]);
    expect(later.last).toMatch(/Fri, Jan 16, (?:9:30|10:00|10:30) AM/);
  });

  test("'¿y a las 11?' and '¿algo más temprano?' in Spanish", () => {
    expect(converse(DENTAL, ["quiero reservar una cita mañana a las 10", "¿y a las 11?"]).last).toContain(
      "Fri, Jan 16, 11:00 AM",
    );
    expect(converse(DENTAL, ["quiero reservar una cita mañana a las 10", "¿algo más temprano?"]).last).toMatch(
      /Fri, Jan 16, (?:8:00|8:30|9:00|9:30) AM/,
    );
  });
});

describe("parts of the day in Portuguese and Spanish", () => {
  test("'depois das 15h' and 'después de las 3' offer times from 3 pm", () => {
    expect(converse(DENTAL, ["quero agendar segunda depois das 15h"]).outputs[0]?.reply.quick_replies?.[0]).toBe(
      "Mon, Jan 19, 3:00 PM",
    );
    expect(converse(DENTAL, ["quiero una cita el lunes después de las 3"]).outputs[0]?.reply.quick_replies?.[0]).toBe(
      "Mon, Jan 19, 3:00 PM",
    );
  });
});

describe("contact corrections in Portuguese and Spanish", () => {
  test("'desculpa, meu número certo é …' and 'perdón, mi número es …' update the lead and say so", () => {
    const pt = converse(CARS, [
      "quero um orçamento de freios",
      "Ana Souza",
      "312 555 0142",
      "ana@example.com",
      "desculpa, meu número certo é 312 555 0199",
    ]);
    expect(pt.last).toContain("atualizei seu telefone para +1 312 555 0199");
    expect(actionsOfType(pt.actions, "lead_updated")).toHaveLength(1);
    const es = converse(DENTAL, [
      "quiero un presupuesto de blanqueamiento",
      "Luis Soto",
      "212 555 0187",
      "luis@example.com",
      "perdón, mi número es 212 555 0199",
    ]);
    expect(es.last).toContain("he cambiado tu teléfono a +1 212 555 0199");
  });
});
