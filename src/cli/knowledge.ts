import type { Deps } from "../deps.ts";
import { embedderForTenant } from "../assistant/settings.ts";
import { importEnded } from "../knowledge/import-sitemap.ts";
import { addSource, getSource, listSources, syncSourceNow, type SourceView } from "../knowledge/sources.ts";
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

/** Sources as a table (or the API's JSON); exit 1 when one failed. */
function printSources(io: CliIo, json: boolean | undefined, sources: SourceView[], none: string): number {
  if (json) io.out(JSON.stringify({ data: sources }));
  else if (sources.length === 0) io.out(none);
  else {
    const counts = (source: SourceView) =>
      Object.entries(source.report?.counts ?? {})
        .filter(([, count]) => count > 0)
        .map(([result, count]) => `${count} ${result}`)
        .join(", ");
    io.out(
      formatTable(
        ["SOURCE", "KIND", "URL", "STATUS", "PAGES", "ERROR"],
        sources.map((source) => [
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
  return sources.some((source) => source.status === "failed") ? 1 : 0;
}

const FLAGS = {
  tenant: { type: "string" },
  source: { type: "string" },
  url: { type: "string" },
  sitemap: { type: "string" },
  title: { type: "string" },
  "no-wait": { type: "boolean" },
} as const;

/** `--url U [--title T]` or `--sitemap U`, exactly one. */
function newSourceOf(values: { url?: string; sitemap?: string; title?: string }) {
  if ((values.url === undefined) === (values.sitemap === undefined))
    throw new UsageError("knowledge add needs exactly one of --url and --sitemap");
  if (values.sitemap !== undefined) {
    if (values.title !== undefined)
      throw new UsageError("--title goes with --url: a sitemap's pages keep their titles");
    return { kind: "sitemap" as const, url: values.sitemap };
  }
  return { kind: "url" as const, url: values.url ?? "", title: values.title };
}

/**
 * `parley knowledge sync`: the tenant's sources (or one) fetched now, as the schedule would;
 * `parley knowledge add`: a page or a sitemap added, and a sitemap's pages imported before it
 * prints (or, with --no-wait, left to the running server's schedule). Exit 1 when one failed.
 */
export async function knowledgeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, FLAGS);
  const [action, ...rest] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if ((action !== "sync" && action !== "add") || rest.length > 0)
    throw new UsageError(
      action ? `unknown knowledge command '${[action, ...rest].join(" ")}'` : "missing command: sync or add",
    );
  const tenantId = requireFlag(values.tenant, "tenant");
  const embedderOf = (deps: Deps) => (tenant: string) => embedderForTenant(deps, tenant);
  if (action === "add") {
    const input = newSourceOf(values);
    return withCliDeps(io, { db: values.db }, async (deps) => {
      const wait = !values["no-wait"];
      const added = await addSource(deps, tenantId, input, embedderOf(deps), { importNow: wait });
      if (wait) await importEnded(deps.store, added.source_id);
      const source = wait ? await getSource(deps, tenantId, added.source_id) : added;
      return printSources(io, values.json, [source], "");
    });
  }
  return withCliDeps(io, { db: values.db }, async (deps) => {
    const ids = values.source
      ? [values.source]
      : (await syncableSources(deps, tenantId)).map((source) => source.source_id);
    const synced: SourceView[] = [];
    for (const id of ids) synced.push(await syncSourceNow(deps, tenantId, id, embedderOf(deps)));
    return printSources(io, values.json, synced, `${tenantId} has no URL or sitemap sources`);
  });
}
