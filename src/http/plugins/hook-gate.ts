import type { AppDeps } from "../deps.ts";
import { AppError } from "../../lib/app-error.ts";
import { clientIp } from "./client-ip.ts";

interface HookRequest {
  request: Request;
  server: Parameters<typeof clientIp>[1];
  set: { headers: Record<string, string | number> };
}

export interface HookGate {
  /** Called by the verb once the provider's signature is verified: counts the tenant's allowance. */
  admit(): Promise<void>;
  /** Runs the verb; a refusal for a bad signature or an unknown tenant counts against the client IP. */
  run<T>(work: () => T | Promise<T>): Promise<T>;
}

/**
 * Inbound provider hooks (payments, WhatsApp) have two buckets. Signed requests count against
 * the tenant's `hooks` allowance, but only after the signature is verified; requests that fail
 * it (or name a tenant with no hook configured) count against the sender's IP in
 * `hook_rejects`. The tenant id is public (it is in the widget snippet), so junk posted to it
 * must never use up the allowance of the provider's real, signed events.
 */
export function hookGate(deps: AppDeps, context: HookRequest, tenantId: string): HookGate {
  const ip = clientIp(context.request, context.server, deps.config.trustProxy);
  return {
    admit: () => deps.rateLimiter.check("hooks", tenantId, context.set.headers),
    async run(work) {
      await deps.rateLimiter.refuseIfExhausted("hook_rejects", ip);
      try {
        return await work();
      } catch (error) {
        if (error instanceof AppError && (error.status === 401 || error.status === 403 || error.status === 404))
          await deps.rateLimiter.check("hook_rejects", ip, {});
        throw error;
      }
    },
  };
}
