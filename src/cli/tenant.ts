import { changePlan } from "../billing/change-plan.ts";
import { setPaymentSecret } from "../integrations/payments.ts";
import { setWhatsappSettings, whatsappCallbackUrl } from "../integrations/whatsapp-settings.ts";
import { createTenant } from "../tenants/create-tenant.ts";
import { listTenants } from "../tenants/find-tenant.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps, withCliDepsCreatingDatabase } from "./context.ts";
import { formatTable, isoOrDash, readSecret, UsageError, type CliIo } from "./io.ts";
import { planChangeJson, tenantJson } from "./json-views.ts";
import { isSectorSlug, SECTOR_SLUGS } from "../chat/engine/sector-templates.ts";

const ACTIONS = ["create", "list", "plan", "payment-secret", "whatsapp"] as const;

const readPaymentSecret = (io: CliIo) => readSecret(io, "PARLEY_PAYMENT_SECRET", "secret", { trim: true });

export async function tenantCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    name: { type: "string" },
    plan: { type: "string" },
    sector: { type: "string" },
    origins: { type: "string" },
    "phone-number-id": { type: "string" },
  });
  const [action, ...rest] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (!action) throw new UsageError(`missing action: ${ACTIONS.join(", ")}`);
  if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown tenant action '${action}'`);
  if (values.sector !== undefined && !isSectorSlug(values.sector))
    throw new UsageError(`--sector ${values.sector} is not a sector; use one of: ${SECTOR_SLUGS.join(", ")}`);
  // tenant create may come before the first start; every other action needs the database there.
  const withDeps = action === "create" ? withCliDepsCreatingDatabase : withCliDeps;
  return withDeps(io, { db: values.db }, async (deps) => {
    switch (action) {
      case "create": {
        const tenant = await createTenant(deps, {
          name: requireFlag(values.name, "name"),
          plan: values.plan,
          sector: values.sector,
          origins: values.origins?.split(",") ?? [],
        });
        if (values.json) io.out(JSON.stringify(tenantJson(tenant)));
        else
          io.out(
            `created tenant ${tenant.id} (${tenant.name}, plan ${tenant.plan}, sector ${tenant.sector}, chatbot ${tenant.chatbotId})`,
          );
        return 0;
      }
      case "list": {
        const tenants = await listTenants(deps);
        if (values.json) io.out(JSON.stringify(tenants.map(tenantJson)));
        else
          io.out(
            formatTable(
              ["ID", "NAME", "PLAN", "SECTOR", "ORIGINS", "CREATED"],
              tenants.map((tenant) => [
                tenant.id,
                tenant.name,
                tenant.plan,
                tenant.sector,
                tenant.allowedOrigins.join(",") || "*",
                isoOrDash(tenant.createdAt),
              ]),
            ),
          );
        return 0;
      }
      case "plan": {
        const [tenantId, plan] = rest;
        if (!tenantId || !plan) throw new UsageError("usage: parley tenant plan TENANT_ID PLAN");
        const result = await changePlan(deps, tenantId, plan);
        if (values.json) io.out(JSON.stringify(planChangeJson(result)));
        else
          io.out(
            result.change === "none"
              ? `${tenantId} is already on ${plan}`
              : `${tenantId}: ${result.fromPlan} -> ${result.toPlan} (${result.change})`,
          );
        return 0;
      }
      case "payment-secret": {
        const [tenantId] = rest;
        if (!tenantId) throw new UsageError("usage: parley tenant payment-secret TENANT_ID");
        await setPaymentSecret(deps, tenantId, await readPaymentSecret(io));
        if (values.json) io.out(JSON.stringify({ tenant_id: tenantId, payment_secret_set: true }));
        else
          io.out(
            `payment secret set for ${tenantId}; point the provider at ${deps.config.publicUrl}/api/v1/hooks/payments/${tenantId}`,
          );
        return 0;
      }
      case "whatsapp": {
        const [tenantId] = rest;
        if (!tenantId) throw new UsageError("usage: parley tenant whatsapp TENANT_ID --phone-number-id ID");
        // Secrets come from the environment only, never flags (shell history, ps).
        const fromEnv = (name: string) => {
          const value = io.env[name]?.trim();
          if (!value) throw new UsageError(`missing ${name}: the WhatsApp secrets are read from the environment`);
          return value;
        };
        await setWhatsappSettings(deps, tenantId, {
          phone_number_id: requireFlag(values["phone-number-id"], "phone-number-id"),
          verify_token: fromEnv("PARLEY_WHATSAPP_VERIFY_TOKEN"),
          app_secret: fromEnv("PARLEY_WHATSAPP_APP_SECRET"),
          access_token: fromEnv("PARLEY_WHATSAPP_ACCESS_TOKEN"),
        });
        const callbackUrl = whatsappCallbackUrl(deps, tenantId);
        if (values.json) io.out(JSON.stringify({ tenant_id: tenantId, configured: true, callback_url: callbackUrl }));
        else
          io.out(
            `WhatsApp settings stored for ${tenantId}; in Meta's dashboard set the callback URL to ${callbackUrl} with the same verify token`,
          );
        return 0;
      }
      default:
        throw new UsageError(
          action
            ? `unknown tenant action '${action}'`
            : "missing action: create, list, plan, payment-secret or whatsapp",
        );
    }
  });
}
