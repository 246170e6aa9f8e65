import { Elysia } from "elysia";
import type { AppDeps } from "./deps.ts";
import { toErrorResponse } from "./errors.ts";
import { parseJsonBody, refuseBodilessJson } from "./body.ts";
import { exposeVisitorError } from "./plugins/cors.ts";
import { authRoutes } from "./routes/auth.ts";
import { healthRoutes } from "./routes/health.ts";
import { accountRoutes } from "./routes/account.ts";
import { teamRoutes } from "./routes/team.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { docsRoutes } from "./routes/docs.ts";
import { billingRoutes } from "./routes/billing.ts";
import { analyticsRoutes } from "./routes/analytics.ts";
import { chatRoutes } from "./routes/chat.ts";
import { operatorRoutes } from "./routes/operator.ts";
import { inboxRoutes } from "./routes/inbox.ts";
import { cannedReplyRoutes } from "./routes/canned-replies.ts";
import { liveRoutes } from "./routes/live.ts";
import { ratingRoutes } from "./routes/ratings.ts";
import { privacyRoutes } from "./routes/privacy.ts";
import { widgetRoutes } from "./routes/widget.ts";
import { webhookDeliveryRoutes } from "./routes/webhook-deliveries.ts";
import { webhookRuleRoutes } from "./routes/webhook-rules.ts";
import { webhookRuleActionRoutes } from "./routes/webhook-rule-actions.ts";
import { paymentHookRoutes } from "./routes/payment-hooks.ts";
import { whatsappHookRoutes } from "./routes/whatsapp-hooks.ts";
import { widgetAssetRoutes } from "./routes/widget-assets.ts";
import { adminPageRoutes } from "./routes/admin-page.ts";
import { knowledgeRoutes } from "./routes/knowledge.ts";
import { knowledgeSourceRoutes } from "./routes/knowledge-sources.ts";
import { chatbotTestRoutes } from "./routes/chatbot-tests.ts";
import { unansweredRoutes } from "./routes/unanswered.ts";

interface RequestMeta {
  id: string;
  startedAt: number;
  status?: number;
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/** Builds the whole HTTP application without listening: tests call `app.handle(request)`. */
export function createApp(deps: AppDeps) {
  const meta = new WeakMap<Request, RequestMeta>();
  const logRequest = ({ request, set }: { request: Request; set: { status?: number | string } }) => {
    const entry = meta.get(request);
    if (!entry) return;
    deps.log.info({
      msg: "request",
      request_id: entry.id,
      method: request.method,
      path: new URL(request.url).pathname,
      status: entry.status ?? (typeof set.status === "number" ? set.status : 200),
      duration_ms: Math.round((performance.now() - entry.startedAt) * 100) / 100,
    });
  };

  // normalize: false — unknown body keys must fail validation (422), not be silently dropped.
  const app = new Elysia({ normalize: false })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      const id = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
      meta.set(request, { id, startedAt: performance.now() });
      set.headers["x-request-id"] = id;
      set.headers["x-content-type-options"] = "nosniff";
      refuseBodilessJson(request);
    })
    .onParse(({ request, contentType }) => parseJsonBody(request, contentType))
    .onError(({ code, error, request }) => {
      const entry = meta.get(request);
      const response = toErrorResponse(code, error, entry?.id ?? "-", deps.log);
      if (entry) entry.status = response.status;
      exposeVisitorError(request, response.headers);
      return response;
    })
    // Only when request lines are logged: Elysia schedules this hook (a setImmediate) after
    // every response once it exists, which a server that logs no requests need not pay for.
    .onAfterResponse(deps.config.logLevel === "info" ? [logRequest] : [])
    .use(healthRoutes(deps))
    .use(authRoutes(deps))
    .use(accountRoutes(deps))
    .use(teamRoutes(deps))
    .use(webhookRuleRoutes(deps))
    .use(webhookRuleActionRoutes(deps))
    .use(webhookDeliveryRoutes(deps))
    .use(widgetRoutes(deps))
    .use(chatRoutes(deps))
    .use(chatbotTestRoutes(deps))
    .use(unansweredRoutes(deps))
    .use(operatorRoutes(deps))
    .use(inboxRoutes(deps))
    .use(cannedReplyRoutes(deps))
    .use(liveRoutes(deps))
    .use(ratingRoutes(deps))
    .use(knowledgeRoutes(deps))
    .use(knowledgeSourceRoutes(deps))
    .use(privacyRoutes(deps))
    .use(billingRoutes(deps))
    .use(analyticsRoutes(deps))
    .use(paymentHookRoutes(deps))
    .use(whatsappHookRoutes(deps))
    .use(widgetAssetRoutes(deps))
    .use(adminPageRoutes(deps))
    .use(metricsRoutes(deps));
  return app.use(docsRoutes(deps, () => app.routes));
}

export type App = ReturnType<typeof createApp>;
