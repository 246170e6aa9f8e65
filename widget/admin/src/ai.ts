/** AI: the tenant's model provider settings (the `ai` section of the bot config) and a connection test. */
import { api } from "./api.ts";
import { busy, byId, say, sayError } from "./dom.ts";
import type { AiSettingsView } from "./types.ts";

const input = (id: string) => byId<HTMLInputElement>(id);
const text = (id: string): string | null => input(id).value.trim() || null;
const number = (id: string): number | null => (input(id).value.trim() === "" ? null : Number(input(id).value));

export function wireAi() {
  const form = byId<HTMLFormElement>("ai-form");
  const message = byId("ai-msg");

  function fill(ai: AiSettingsView) {
    input("ai-enabled").checked = ai.enabled;
    input("ai-base-url").value = ai.base_url ?? "";
    input("ai-model").value = ai.model ?? "";
    input("ai-embedding-model").value = ai.embedding_model ?? "";
    input("ai-temperature").value = ai.temperature === null ? "" : String(ai.temperature);
    input("ai-max-tokens").value = ai.max_reply_tokens === null ? "" : String(ai.max_reply_tokens);
    byId<HTMLTextAreaElement>("ai-instructions").value = ai.instructions;
    // The key is write-only: the server says whether one is stored, never what it is.
    input("ai-api-key").value = "";
    input("ai-forget-key").checked = false;
    byId("ai-key-state").textContent = ai.api_key_set
      ? "An API key is stored. Leave the field empty to keep it."
      : "No API key is stored for this tenant.";
  }

  async function load() {
    try {
      const config = await api<{ ai: AiSettingsView }>("GET", "/chatbot/config");
      fill(config.ai);
    } catch (error) {
      sayError(message, error);
    }
  }

  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    const key = input("ai-api-key").value.trim();
    const ai = {
      enabled: input("ai-enabled").checked,
      base_url: text("ai-base-url"),
      model: text("ai-model"),
      embedding_model: text("ai-embedding-model"),
      instructions: byId<HTMLTextAreaElement>("ai-instructions").value,
      temperature: number("ai-temperature"),
      max_reply_tokens: number("ai-max-tokens"),
      ...(input("ai-forget-key").checked ? { api_key: null } : key ? { api_key: key } : {}),
    };
    void busy(button, async () => {
      try {
        // The test set first, against the proposed settings: a change that breaks a case asks before it is saved.
        if (button.dataset.armed !== "true") {
          const trial = await api<{ summary: string; changes: Array<{ after: string }> }>(
            "PATCH",
            "/chatbot/config?dry_run=true",
            { ai },
          );
          if (trial.changes.some((change) => change.after === "failed")) {
            button.dataset.armed = "true";
            button.textContent = "Save anyway";
            return say(message, "error", `${trial.summary} — save anyway?`);
          }
        }
        const saved = await api<{ ai: AiSettingsView }>("PATCH", "/chatbot/config", { ai });
        fill(saved.ai);
        say(message, "ok", "AI settings saved.");
        disarm();
      } catch (error) {
        sayError(message, error);
      }
    });
  });
  const disarm = () => {
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button?.dataset.armed !== "true") return;
    delete button.dataset.armed;
    button.textContent = "Save AI settings";
  };
  // Another edit is another change: it is tried again before it is saved.
  form.addEventListener("input", disarm);

  const test = byId<HTMLButtonElement>("ai-test");
  test.addEventListener("click", () => {
    void busy(test, async () => {
      try {
        const result = await api<{ ok: boolean; model: string | null; latency_ms: number; error?: string }>(
          "POST",
          "/chatbot/ai/test",
        );
        if (result.ok) say(message, "ok", `Connected: ${result.model} answered in ${result.latency_ms} ms.`);
        else say(message, "error", `The provider did not answer: ${result.error ?? "unknown error"}`);
      } catch (error) {
        sayError(message, error);
      }
    });
  });

  return { show: load };
}
