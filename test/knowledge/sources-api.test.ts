import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { makePdf } from "./make-pdf.ts";

let context: TestContext;
afterEach(() => context.close());

async function setup() {
  context = buildTestApp();
  const seeded = await seedTenant(context.deps, "Clinic");
  return { ...seeded, key: { "x-api-key": seeded.apiKey } };
}

const uploadPdf = (
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  query = "",
  type = "application/pdf",
) =>
  context.app.handle(
    new Request(`http://localhost/api/v1/knowledge/sources/pdf${query}`, {
      method: "POST",
      headers: { ...headers, "content-type": type },
      body,
    }),
  );

describe("knowledge sources API", () => {
  test("an uploaded PDF becomes an upload source with one searchable document naming its pages", async () => {
    const { key } = await setup();
    const created = await uploadPdf(
      key,
      makePdf(["Opening hours: 9 to 18.", "Free parking behind the building."]),
      "?title=Clinic%20guide",
    );
    expect(created.status).toBe(201);
    const source = (await created.json()) as {
      source_id: string;
      kind: string;
      status: string;
      document_count: number;
      next_sync_at: string | null;
    };
    expect(source).toMatchObject({ kind: "upload", status: "ok", document_count: 1, next_sync_at: null });

    const search = (await (
      await context.request("GET", "/api/v1/knowledge/search?q=parking", { headers: key })
    ).json()) as { data: Array<{ title: string; text: string }> };
    expect(search.data[0]).toMatchObject({ title: "Clinic guide" });
    expect(search.data[0]?.text).toContain("Page 2");

    const list = (await (await context.request("GET", "/api/v1/knowledge/sources", { headers: key })).json()) as {
      data: Array<{ source_id: string }>;
    };
    expect(list.data.map((row) => row.source_id)).toEqual([source.source_id]);
    const sync = await context.request("POST", `/api/v1/knowledge/sources/${source.source_id}/sync`, { headers: key });
    expect(sync.status).toBe(409);

    const deleted = await context.request("DELETE", `/api/v1/knowledge/sources/${source.source_id}`, { headers: key });
    expect(await deleted.json()).toEqual({ ok: true, source_id: source.source_id, deleted: true });
    const documents = (await (
      await context.request("GET", "/api/v1/knowledge/documents", { headers: key })
    ).json()) as { data: unknown[] };
    expect(documents.data).toEqual([]);
  });

  test("a broken PDF is a 422, a PDF sent as JSON a 4xx, and another tenant's source a 404", async () => {
    const { key } = await setup();
    const broken = await uploadPdf(key, new TextEncoder().encode("%PDF-1.4\nthis is not really a pdf"));
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({ error: "pdf_unreadable" });
    const asJson = await context.request("POST", "/api/v1/knowledge/sources/pdf", {
      headers: key,
      body: { pdf: "..." },
    });
    expect(asJson.status).toBe(415);

    const mine = (await (await uploadPdf(key, makePdf(["Prices: 45 EUR."]))).json()) as { source_id: string };
    const other = await seedTenant(context.deps, "Other");
    const theirs = await context.request("GET", `/api/v1/knowledge/sources/${mine.source_id}`, {
      headers: { "x-api-key": other.apiKey },
    });
    expect(theirs.status).toBe(404);
    const deleteTheirs = await context.request("DELETE", `/api/v1/knowledge/sources/${mine.source_id}`, {
      headers: { "x-api-key": other.apiKey },
    });
    expect(deleteTheirs.status).toBe(404);
  });

  test("adding needs exactly one of url and sitemap_url; a refused address is a 422; the schedule is read and set", async () => {
    const { key } = await setup();
    const add = (body: unknown) => context.request("POST", "/api/v1/knowledge/sources", { headers: key, body });
    expect((await add({})).status).toBe(422);
    expect((await add({ url: "https://a.example/", sitemap_url: "https://a.example/sitemap.xml" })).status).toBe(422);
    expect((await add({ url: "https://a.example/", extra: 1 })).status).toBe(422);
    const loopback = await add({ sitemap_url: "http://127.0.0.1:9/sitemap.xml" });
    expect(loopback.status).toBe(422);
    expect(((await loopback.json()) as { message: string }).message).toContain("127.0.0.1");

    const schedule = () => context.request("GET", "/api/v1/knowledge/sync-schedule", { headers: key });
    expect(await (await schedule()).json()).toEqual({ sync_interval: "1d" });
    const set = await context.request("PUT", "/api/v1/knowledge/sync-schedule", {
      headers: key,
      body: { sync_interval: "off" },
    });
    expect(await set.json()).toEqual({ sync_interval: "off" });
    expect(await (await schedule()).json()).toEqual({ sync_interval: "off" });
    expect(
      (
        await context.request("PUT", "/api/v1/knowledge/sync-schedule", {
          headers: key,
          body: { sync_interval: "soon" },
        })
      ).status,
    ).toBe(422);
  });
});
