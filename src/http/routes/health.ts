import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { jsonResponse } from "../errors.ts";

export function healthRoutes(deps: AppDeps) {
  return new Elysia()
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", () => {
      try {
        deps.sqlite.prepare("SELECT 1").get();
        return { status: "ready" };
      } catch (error) {
        deps.log.error({ msg: "readiness check failed", error: String(error) });
        return jsonResponse(503, { error: "not_ready", message: "The database cannot be reached." });
      }
    });
}
