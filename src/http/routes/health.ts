import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { jsonResponse, STORAGE_FULL_RETRY_AFTER_S } from "../errors.ts";
import { tlsReadinessDetail } from "../tls/tls-status.ts";

export function healthRoutes(deps: AppDeps) {
  return new Elysia()
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", async () => {
      try {
        // Ready means able to take writes: a full disk makes every chat message and event fail.
        // A lock held by another process (a CLI command, a backup) passes, so it is not "not ready".
        const probe = await deps.store.storage.probeWrite();
        if (probe === "storage_full") {
          return jsonResponse(
            503,
            { error: "storage_full", message: "The database cannot write: its disk is full." },
            { "retry-after": String(STORAGE_FULL_RETRY_AFTER_S) },
          );
        }
        // An expiring certificate still serves: ready, with the warning in the detail.
        const tls = deps.tls ? tlsReadinessDetail(deps.tls, deps.clock.now()) : null;
        return { status: "ready", ...(probe === "busy" ? { storage: "busy" } : {}), ...(tls ? { tls } : {}) };
      } catch (error) {
        deps.log.error({ msg: "readiness check failed", error: String(error) });
        return jsonResponse(503, { error: "not_ready", message: "The database cannot be reached." });
      }
    });
}
