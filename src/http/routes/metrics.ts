import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";

/** Prometheus scrape target: aggregate counts only, no tenant data. */
export function metricsRoutes(deps: AppDeps) {
  return new Elysia().get(
    "/metrics",
    () => new Response(deps.metrics.render(deps.sqlite, deps.clock), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } }),
  );
}
