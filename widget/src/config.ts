import { pickLanguage } from "./strings.ts";

export type Theme = "light" | "dark" | "auto";

export interface WidgetConfig {
  tenant: string;
  /** Where the Parley API lives: data-branding-url, else the script's own origin. */
  base: string;
  theme: Theme;
  position: "left" | "right";
  color: string | null;
  open: boolean;
  lang: string;
  /** Poll interval while the panel is open after a hand-off; closed panels poll 5× slower. */
  pollMs: number;
}

const DEFAULT_POLL_MS = 3000;

/** The tag that loaded us: currentScript while executing, else the first matching tag. */
export function findOwnScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.tenant) return current;
  return document.querySelector<HTMLScriptElement>("script[data-tenant][src*='widget.js']");
}

/** Reads the `data-*` attributes; null when the tag names no tenant (nothing to show). */
export function readConfig(script: HTMLScriptElement): WidgetConfig | null {
  const data = script.dataset;
  const tenant = data.tenant?.trim();
  if (!tenant) return null;
  const base = (data.brandingUrl?.trim() || new URL(script.src, location.href).origin).replace(/\/+$/, "");
  const theme = data.theme === "light" || data.theme === "dark" ? data.theme : "auto";
  const color = data.color && CSS.supports("color", data.color) ? data.color : null;
  const pollMs = Number(data.pollMs);
  return {
    tenant,
    base,
    theme,
    position: data.position === "left" ? "left" : "right",
    color,
    open: data.open !== undefined && data.open !== "false",
    lang: pickLanguage(data.lang, navigator.languages ?? [navigator.language]),
    pollMs: pollMs >= 200 ? pollMs : DEFAULT_POLL_MS,
  };
}
