/**
 * Parley's embeddable chat widget. One IIFE configured by data-* attributes on its own
 * <script> tag (see docs/widget.md). It never throws into the host page and claims
 * window.Parley only when that name is free.
 */
import { findOwnScript, readConfig } from "./config.ts";
import { guard } from "./guard.ts";
import { mountWidget } from "./widget.ts";

declare global {
  interface Window {
    Parley?: unknown;
  }
}

guard(() => {
  // currentScript is only set while this file runs: read it now, before anything waits.
  const script = findOwnScript();
  const config = script && readConfig(script);
  if (!config) return;
  const start = guard(() => {
    const host = document.createElement("parley-widget");
    document.body.append(host);
    const controls = mountWidget(config, host);
    if (!("Parley" in window)) window.Parley = Object.freeze({ ...controls });
  });
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start, { once: true });
})();
