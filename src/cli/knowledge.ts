import type { Deps } from "../deps.ts";
import { embedderForTenant } from "../assistant/settings.ts";
import { listSources, syncSourceNow, type SourceView } from "../knowledge/sources.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { formatTable, UsageError, type CliIo } from "./io.ts";

/** Every URL and sitemap source of the tenant, page by page (uploads have nothing to fetch). */
async function syncableSources(deps: Deps, tenantId: string): Promise<SourceView[]> {
  const sources: SourceView[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSources(deps, tenantId, { limit: 100, cursor });
    sources.push(...page.data.filter((source) => source.kind !== "upload"));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return sources;
}

/** `parley knowledge sync`: the tenant's sources (or one) fetched now, as the schedule would; exit 1 when one failed. */
export async function knowledgeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { tenant: { type: "string" }, source: { type: "string" } });
  const [action, ...rest] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (action !== "sync" || rest.length > 0)
    throw new UsageError(
      action ? `unknown knowledge command '${[action, ...rest].join(" ")}'` : "missing command: sync",
    );
  const tenantId = requireFlag(values.tenant, "tenant");
  return withCliDeps(io, { db: values.db }, async (deps) => {
    const ids = values.source
      ? [values.source]
      : (await syncableSources(deps, tenantId)).map((source) => source.source_id);
    const synced: SourceView[] = [];
    for (const id of ids)
      synced.push(await syncSourceNow(deps, tenantId, id, (tenant) => embedderForTenant(deps, tenant)));
    if (values.json) io.out(JSON.stringify({ data: synced }));
    else if (synced.length === 0) io.out(`${tenantId} has no URL or sitemap sources`);
    else {
      const counts = (source: SourceView) =>
        Object.entries(source.report?.counts ?? {})
          .filter(([, count]) => count > 0)
          .map(([result, count]) => `${count} ${result}`)
          .join(", ");
      io.out(
        formatTable(
          ["SOURCE", "KIND", "URL", "STATUS", "PAGES", "ERROR"],
          synced.map((source) => [
            source.source_id,
            source.kind,
            source.url ?? "",
            source.status,
            counts(source),
            source.last_error ?? "",
          ]),
        ),
      );
    }
    return synced.some((source) => source.status === "failed") ? 1 : 0;
  });
}
