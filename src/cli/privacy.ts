import { eraseLead, eraseSession } from "../chat/erase-person.ts";
import { exportLead, exportSession } from "../chat/export-person.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { UsageError, type CliIo } from "./io.ts";
import type { ErasureResult } from "../chat/erase-person.ts";

const ACTIONS = ["erase", "export"] as const;

const summary = (result: ErasureResult) =>
  `erased ${result.leads} lead(s), ${result.appointments} appointment(s), ${result.sessions} session(s) with ${result.messages} message(s), ` +
  `${result.events} event(s) with ${result.deliveries} delivery(ies), ${result.analytics_events} analytics row(s)`;

/**
 * `parley lead erase|export LEAD_ID --tenant T` and `parley session erase|export SESSION_ID --tenant T`:
 * the CLI twins of DELETE /leads/:id, GET /leads/:id/export and DELETE /sessions/:id.
 */
function personCommand(kind: "lead" | "session") {
  return async (argv: string[], io: CliIo): Promise<number> => {
    const { values, positionals } = parseCommandArgs(argv, { tenant: { type: "string" } });
    const [action, id, ...extra] = positionals;
    const usage = `usage: parley ${kind} erase|export ${kind.toUpperCase()}_ID --tenant TENANT_ID`;
    if (!action) throw new UsageError(`missing action: ${ACTIONS.join(" or ")}`);
    if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown ${kind} action '${action}'`);
    if (!id || extra.length > 0) throw new UsageError(usage);
    const tenantId = requireFlag(values.tenant, "tenant");
    return withCliDeps(io, { db: values.db }, async (deps) => {
      if (action === "export") {
        const exported =
          kind === "lead" ? await exportLead(deps, tenantId, id) : await exportSession(deps, tenantId, id);
        io.out(JSON.stringify(exported, null, values.json ? undefined : 2));
        return 0;
      }
      const result = kind === "lead" ? await eraseLead(deps, tenantId, id) : await eraseSession(deps, tenantId, id);
      io.out(values.json ? JSON.stringify(result) : summary(result));
      return 0;
    });
  };
}

export const leadCommand = personCommand("lead");
export const sessionCommand = personCommand("session");
