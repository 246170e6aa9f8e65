import { describe, expect, test } from "bun:test";
import { buildWidget } from "../../widget/build.ts";
import { pickLanguage, STRINGS, stringsFor } from "../../widget/src/strings.ts";

describe("the widget's own strings", () => {
  test("data-lang wins, then the browser's first language the widget speaks, then English", () => {
    expect(pickLanguage("es", ["pt-BR"])).toBe("es");
    expect(pickLanguage(undefined, ["pt-BR", "en-US"])).toBe("pt");
    expect(pickLanguage("fr", ["de-DE", "es-MX"])).toBe("es");
    expect(pickLanguage(undefined, ["de-DE"])).toBe("en");
  });

  test("placeholder, Send, Retry, the hand-off wait and the errors exist in Portuguese and Spanish", () => {
    expect(stringsFor("pt")).toMatchObject({
      placeholder: "Digite sua mensagem…",
      send: "Enviar",
      retry: "Tentar de novo",
      waiting: "Aguardando uma pessoa entrar…",
    });
    expect(stringsFor("es")).toMatchObject({
      placeholder: "Escribe tu mensaje…",
      send: "Enviar",
      retry: "Reintentar",
      waiting: "Esperando a que se una una persona…",
    });
    for (const lang of ["pt", "es"] as const) {
      for (const key of [
        "open",
        "close",
        "placeholder",
        "typing",
        "error",
        "offline",
        "notAllowed",
        "rateLimited",
        "failed",
        "retry",
        "waiting",
        "joined",
      ] as const) {
        expect({ lang, key, translated: STRINGS[lang][key] !== STRINGS.en[key] }).toEqual({
          lang,
          key,
          translated: true,
        });
      }
    }
  });

  test("the built widget carries the three languages and stays within 12 KB gzipped", () => {
    const code = buildWidget();
    expect(code).toContain("Digite sua mensagem");
    expect(code).toContain("Escribe tu mensaje");
    expect(Bun.gzipSync(code).length).toBeLessThanOrEqual(12 * 1024);
  });
});
