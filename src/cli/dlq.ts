import { getDelivery } from "../webhooks/deliveries.ts";
import { withDeliveryDetails } from "../webhooks/delivery-stats.ts";
import {
  getDeadLetter,
  listDeadLetters,
  retriggerDeadLetters,
  retriggerMatchingDeadLetters,
} from "../webhooks/dead-letters.ts";
import { isEventName } from "../webhooks/events.ts";
import { recoverRuleDeliveries } from "../webhooks/recover-deliveries.ts";
import { parseCommandArgs } from "./args.ts";
import { parseIsoTime } from "../lib/clock.ts";
import { withCliDeps } from "./context.ts";
import { formatTable, UsageError, type CliIo } from "./io.ts";
import { requireTenant } from "../tenants/find-tenant.ts";

const ACTIONS = ["list", "show", "retrigger", "recover"] as const;

function parseSince(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const ms = parseIsoTime(since);
  if (ms === null) throw new UsageError(`--since ${since} is not an ISO 8601 time (e.g. 2026-01-15T09:00:00Z)`);
  return ms;
}

function parseEvent(event: string | undefined): string | undefined {
  if (event !== undefined && !isEventName(event)) throw new UsageError(`--event ${event} is not an event name`);
  return event;
}

const truncate = (text: string | null, length: number) =>
  text === null ? "-" : text.length > length ? `${text.slice(0, length - 1)}…` : text;

/**
 * The administrator's dead-letter queue. It works on the database file directly, so it also
 * works while the server runs: a re-triggered delivery is due at once and the server's
 * scheduler picks it up within one poll interval.
 */
export async function dlqCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    tenant: { type: "string" },
    event: { type: "string" },
    since: { type: "string" },
    all: { type: "boolean" },
    limit: { type: "string" },
    rule: { type: "string" },
  });
  const [action, ...ids] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (!action) throw new UsageError(`missing action: ${ACTIONS.join(", ")}`);
  if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown dlq action '${action}'`);
  const filter = {
    tenantId: values.tenant ?? null,
    event: parseEvent(values.event),
    sinceMs: parseSince(values.since),
  };
  return withCliDeps(io, { db: values.db }, async (deps) => {
    // An unknown --tenant is an error (exit 1), not an empty result that looks like success.
    if (filter.tenantId !== null) await requireTenant(deps, filter.tenantId);
    switch (action) {
      case "list": {
        const limit = values.limit === undefined ? 1000 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number");
        const { data } = await listDeadLetters(deps, filter, { limit });
        if (values.json) io.out(JSON.stringify(await withDeliveryDetails(deps, data, (row) => row.tenant_id)));
        else if (data.length === 0) io.out("no dead letters");
        else {
          io.out(
            formatTable(
              ["ID", "WEBHOOK_ID", "TENANT", "RULE", "EVENT", "ATTEMPTS", "LAST ERROR", "DEAD AT", "EXPIRES AT"],
              data.map((row) => [
                row.dead_letter_id,
                row.webhook_id,
                row.tenant_id,
                row.rule_id ?? "(deleted)",
                row.event,
                String(row.attempts),
                truncate(row.last_error, 40),
                row.dead_at,
                row.expires_at,
              ]),
            ),
          );
        }
        return 0;
      }
      case "show": {
        const [id] = ids;
        if (!id || ids.length > 1) throw new UsageError("usage: parley dlq show DEAD_LETTER_ID");
        const deadLetter = await getDeadLetter(deps, filter.tenantId, id);
        const delivery = await getDelivery(deps, deadLetter.tenant_id, deadLetter.webhook_id);
        if (values.json) io.out(JSON.stringify({ ...deadLetter, delivery }));
        else {
          io.out(`${deadLetter.dead_letter_id}  ${deadLetter.event} -> ${delivery.url}`);
          io.out(
            `webhook_id ${deadLetter.webhook_id}  tenant ${deadLetter.tenant_id}  rule ${deadLetter.rule_id ?? "(deleted)"}`,
          );
          io.out(`dead at ${deadLetter.dead_at}, kept until ${deadLetter.expires_at}`);
          io.out(
            formatTable(
              ["CYCLE", "ATTEMPT", "STARTED", "MS", "STATUS", "ERROR", "RESPONSE"],
              delivery.attempt_log.map((attempt) => [
                String(attempt.cycle),
                String(attempt.attempt),
                attempt.started_at,
                String(Math.round(attempt.duration_ms)),
                attempt.status_code === null ? "-" : String(attempt.status_code),
                truncate(attempt.error, 40),
                truncate(attempt.response_excerpt?.replaceAll(/\s+/g, " ") ?? null, 40),
              ]),
            ),
          );
        }
        return 0;
      }
      case "retrigger": {
        if (values.all && ids.length > 0) throw new UsageError("give dead-letter ids or --all, not both");
        if (!values.all && ids.length === 0)
          throw new UsageError("usage: parley dlq retrigger ID... | --all [--tenant T] [--since ISO] [--event E]");
        if (!values.all && (values.since || values.event)) throw new UsageError("--since and --event go with --all");
        const result = values.all
          ? await retriggerMatchingDeadLetters(deps, filter)
          : await retriggerDeadLetters(deps, filter.tenantId, ids);
        if (values.json) io.out(JSON.stringify(result));
        else {
          for (const row of result.retriggered)
            io.out(`re-triggered ${row.dead_letter_id} (webhook_id ${row.webhook_id})`);
          io.out(`${result.retriggered.length} dead letter(s) moved back to a fresh delivery cycle`);
        }
        return 0;
      }
      case "recover": {
        if (!values.rule || !values.since || ids.length > 0 || values.event)
          throw new UsageError("usage: parley dlq recover --rule RULE_ID --since ISO");
        const result = await recoverRuleDeliveries(deps, filter.tenantId, values.rule, values.since);
        if (values.json) io.out(JSON.stringify(result));
        else
          io.out(
            `${result.recovered} failed or dead delivery(ies) of ${result.rule_id} since ${result.since} moved back to a fresh delivery cycle`,
          );
        return 0;
      }
      default:
        throw new UsageError(action ? `unknown dlq action '${action}'` : `missing action: ${ACTIONS.join(", ")}`);
    }
  });
}
