/** Knowledge: add text or a page, list and delete documents, the sources that keep them fresh, try a question against the index. */
import { api, query, type Page } from "./api.ts";
import { armedForSecondClick, busy, byId, code, fillRows, h, onSubmit, pager, say, sayError, when } from "./dom.ts";
import type { Hit, KnowledgeDocument } from "./types.ts";
import { wireKnowledgeSources } from "./knowledge-sources.ts";

const value = (id: string) => byId<HTMLInputElement>(id).value.trim();

const size = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);

const source = (hit: Hit): Node | string =>
  hit.document_id.startsWith("faq:")
    ? `FAQ: ${hit.title}`
    : h("span", {}, hit.title, hit.url ? h("br") : null, hit.url ? code(hit.url) : null);

export function wireKnowledge() {
  const message = byId("knowledge-msg");

  const list = pager(byId("knowledge-prev"), byId("knowledge-next"), byId("knowledge-page"), async (cursor) => {
    try {
      const page = await api<Page<KnowledgeDocument>>("GET", `/knowledge/documents${query({ cursor, limit: "25" })}`);
      fillRows(
        byId("knowledge-rows"),
        page.data.map((document) => {
          // Two steps instead of a blocking confirm(): the first click asks, the second deletes.
          const remove: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `Delete ${document.title}`,
              onclick: () => deleteDocument(remove, document),
            },
            "Delete",
          );
          return [
            document.title,
            document.format,
            code(document.source_url),
            String(document.chunk_count),
            size(document.bytes),
            when(document.created_at),
            h("div", { class: "acts" }, remove),
          ];
        }),
        "No documents yet: add text or import a page above. The FAQ entries are searched too.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  async function deleteDocument(button: HTMLButtonElement, document: KnowledgeDocument) {
    if (!armedForSecondClick(button, "Really delete?", `Really delete ${document.title}?`)) return;
    await busy(button, async () => {
      try {
        await api("DELETE", `/knowledge/documents/${encodeURIComponent(document.document_id)}`);
        say(message, "ok", `Deleted ${document.title}.`);
        await list.reset();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  const submitter = (form: HTMLFormElement, target: HTMLElement, body: () => unknown) =>
    onSubmit(form, target, async () => {
      const created = await api<KnowledgeDocument>("POST", "/knowledge/documents", body());
      await list.reset();
      return `Added ${created.title}: ${created.chunk_count} chunk${created.chunk_count === 1 ? "" : "s"}.`;
    });

  submitter(byId<HTMLFormElement>("knowledge-text-form"), byId("knowledge-text-msg"), () => ({
    title: value("knowledge-title"),
    format: byId<HTMLSelectElement>("knowledge-format").value,
    content: byId<HTMLTextAreaElement>("knowledge-content").value,
  }));
  submitter(byId<HTMLFormElement>("knowledge-url-form"), byId("knowledge-url-msg"), () => {
    const title = value("knowledge-url-title");
    return { url: value("knowledge-url"), ...(title ? { title } : {}) };
  });

  const searchForm = byId<HTMLFormElement>("knowledge-search-form");
  searchForm.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = searchForm.querySelector<HTMLButtonElement>("button[type=submit]");
    const target = byId("knowledge-search-msg");
    const question = value("knowledge-q");
    if (!button) return;
    if (!question) return say(target, "error", "Type a question a visitor might ask.");
    // The last answer goes at once: results on screen are always the question's now shown.
    say(target, "", "Searching…");
    fillRows(byId<HTMLTableSectionElement>("knowledge-hits"), [], "");
    void busy(button, async () => {
      try {
        const result = await api<{ embedding_model: string | null; data: Hit[] }>(
          "GET",
          `/knowledge/search${query({ q: question, limit: "8" })}`,
        );
        fillRows(
          byId<HTMLTableSectionElement>("knowledge-hits"),
          result.data.map((hit, index) => [
            String(index + 1),
            hit.score.toFixed(4),
            source(hit),
            h("div", { class: "pre" }, hit.text),
            hit.bm25_rank === undefined ? "—" : String(hit.bm25_rank),
            hit.vector_rank === undefined ? "—" : String(hit.vector_rank),
          ]),
          "Nothing in the knowledge matches this question.",
        );
        const mode = result.embedding_model
          ? `BM25 and vectors from ${result.embedding_model}, fused by rank`
          : "BM25 only (no embedding model is set)";
        say(target, "ok", `${result.data.length} chunk${result.data.length === 1 ? "" : "s"} found; ranking: ${mode}.`);
      } catch (error) {
        sayError(target, error);
      }
    });
  });

  const sources = wireKnowledgeSources(() => list.reset());

  // Agents search only: the documents and sources are for owners and admins (the API refuses agents the lists).
  return {
    show: async () =>
      document.body.dataset.role === "agent"
        ? undefined
        : Promise.all([list.reset(), sources.show()]).then(() => undefined),
  };
}
