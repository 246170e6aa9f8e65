/** Knowledge sources: pages and sitemaps kept in sync, uploaded PDFs, each with its sync state; the re-crawl schedule. */
import { api, query, type Page } from "./api.ts";
import { armedForSecondClick, busy, byId, code, fillRows, h, onSubmit, pager, say, sayError, when } from "./dom.ts";
import type { KnowledgeSource } from "./types.ts";

const STATUS_CLASS: Record<KnowledgeSource["status"], string> = {
  ok: "ok-text",
  unchanged: "",
  failed: "error-text",
  pending: "pending-text",
};

/** "3 imported, 1 failed": the last sync's non-zero counts. */
const counts = (source: KnowledgeSource): string =>
  Object.entries(source.report?.counts ?? {})
    .filter(([, count]) => count > 0)
    .map(([result, count]) => `${count} ${result}`)
    .join(", ") || "—";

const statusCell = (source: KnowledgeSource): Node =>
  h(
    "div",
    {},
    h("span", { class: STATUS_CLASS[source.status] }, source.status),
    source.last_error ? h("div", { class: "err-text" }, source.last_error) : null,
  );

/** How often, and how many times, the page asks for a new sitemap's state while its pages are imported (10 minutes). */
const IMPORT_POLL_MS = 500;
const IMPORT_POLLS = 1_200;

/** Wires the Sources section; `documentsChanged` reloads the documents list after a change. */
export function wireKnowledgeSources(documentsChanged: () => Promise<void>) {
  const message = byId("sources-msg");

  const list = pager(byId("sources-prev"), byId("sources-next"), byId("sources-page"), async (cursor) => {
    try {
      const page = await api<Page<KnowledgeSource>>("GET", `/knowledge/sources${query({ cursor, limit: "25" })}`);
      fillRows(
        byId("source-rows"),
        page.data.map((source) => {
          const name = source.title ?? source.url ?? source.source_id;
          const sync: HTMLButtonElement = h(
            "button",
            { type: "button", "aria-label": `Sync ${name} now`, onclick: () => syncNow(sync, source, name) },
            "Sync now",
          );
          sync.hidden = source.kind === "upload";
          const remove: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `Delete ${name} and its documents`,
              onclick: () => deleteSource(remove, source, name),
            },
            "Delete",
          );
          const label = source.url
            ? h("span", {}, source.title ?? "", source.title ? h("br") : null, code(source.url))
            : name;
          return [
            label,
            source.kind,
            statusCell(source),
            when(source.last_synced_at),
            when(source.last_changed_at),
            when(source.next_sync_at),
            String(source.document_count),
            counts(source),
            h("div", { class: "acts" }, sync, remove),
          ];
        }),
        "No sources yet: add a page, a sitemap or a PDF above.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  const changed = async () => {
    await list.reset();
    await documentsChanged();
  };

  async function syncNow(button: HTMLButtonElement, source: KnowledgeSource, name: string) {
    await busy(button, async () => {
      try {
        const synced = await api<KnowledgeSource>(
          "POST",
          `/knowledge/sources/${encodeURIComponent(source.source_id)}/sync`,
        );
        say(
          message,
          synced.status === "failed" ? "error" : "ok",
          `Synced ${name}: ${synced.status}${synced.last_error ? ` (${synced.last_error})` : ""}; ${counts(synced)}.`,
        );
        await changed();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  async function deleteSource(button: HTMLButtonElement, source: KnowledgeSource, name: string) {
    if (
      !armedForSecondClick(
        button,
        "Really delete?",
        `Really delete ${name} and its ${source.document_count} documents?`,
      )
    )
      return;
    await busy(button, async () => {
      try {
        await api("DELETE", `/knowledge/sources/${encodeURIComponent(source.source_id)}`);
        say(message, "ok", `Deleted ${name} and its documents.`);
        await changed();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  /** A new sitemap is answered pending while its pages are imported: its state is asked again until the import ends. */
  async function imported(source: KnowledgeSource): Promise<KnowledgeSource> {
    let current = source;
    for (let poll = 0; current.status === "pending" && poll < IMPORT_POLLS; poll++) {
      await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
      current = await api<KnowledgeSource>("GET", `/knowledge/sources/${encodeURIComponent(source.source_id)}`);
    }
    return current;
  }

  /** A form whose submit sends `body()` to `path` and says what the new source holds once its pages are in. */
  const submitter = (form: HTMLFormElement, target: HTMLElement, path: () => string, body: () => unknown) =>
    onSubmit(form, target, async () => {
      let created = await api<KnowledgeSource>("POST", path(), body());
      await changed();
      if (created.status === "pending") {
        say(target, "ok", `Importing the pages of ${created.url ?? "the sitemap"}…`);
        created = await imported(created);
        await changed();
      }
      return `Added ${created.title ?? created.url ?? "the source"}: ${created.document_count} document${created.document_count === 1 ? "" : "s"}; ${counts(created)}.`;
    });

  submitter(
    byId<HTMLFormElement>("source-form"),
    byId("source-msg"),
    () => "/knowledge/sources",
    () => {
      const url = byId<HTMLInputElement>("source-url").value.trim();
      return byId<HTMLSelectElement>("source-kind").value === "sitemap" ? { sitemap_url: url } : { url };
    },
  );
  submitter(
    byId<HTMLFormElement>("pdf-form"),
    byId("pdf-msg"),
    () => `/knowledge/sources/pdf${query({ title: byId<HTMLInputElement>("pdf-title").value.trim() })}`,
    () => byId<HTMLInputElement>("pdf-file").files?.[0] ?? new Blob([], { type: "application/pdf" }),
  );

  const interval = byId<HTMLSelectElement>("sync-interval");
  onSubmit(
    byId<HTMLFormElement>("schedule-form"),
    byId("schedule-msg"),
    async () => {
      const saved = await api<{ sync_interval: string }>("PUT", "/knowledge/sync-schedule", {
        sync_interval: interval.value,
      });
      await list.reset();
      return saved.sync_interval === "off"
        ? "Sources are no longer fetched on a schedule."
        : `Sources are fetched again every ${saved.sync_interval}.`;
    },
    { keepValues: true },
  );

  return {
    show: async () => {
      try {
        const schedule = await api<{ sync_interval: string }>("GET", "/knowledge/sync-schedule");
        // A custom interval set through the API is shown as one more choice.
        if (![...interval.options].some((option) => option.value === schedule.sync_interval))
          interval.append(h("option", { value: schedule.sync_interval }, `every ${schedule.sync_interval}`));
        interval.value = schedule.sync_interval;
      } catch (error) {
        sayError(byId("schedule-msg"), error);
      }
      await list.reset();
    },
  };
}
