import { afterAll, describe, expect, test } from "bun:test";
import { htmlToText, MAX_HTML_NESTING } from "../../src/knowledge/html-to-text.ts";
import type { AppError } from "../../src/lib/app-error.ts";
import { buildTestApp, seedTenant } from "../helpers.ts";

const context = buildTestApp({ rateLimits: false });
afterAll(() => context.close());

function refusal(html: string): AppError | null {
  try {
    htmlToText(html);
    return null;
  } catch (error) {
    return error as AppError;
  }
}

describe("pages built to stall the HTML reader", () => {
  test("elements nested past the limit are refused with 422 document_too_deep", () => {
    const error = refusal("<div>".repeat(MAX_HTML_NESTING + 1));
    expect(error?.code).toBe("document_too_deep");
    expect(error?.status).toBe(422);
  });

  test("open tags closed by the wrong name count as still open", () => {
    expect(refusal(`${"<b>".repeat(MAX_HTML_NESTING + 1)}${"</i>".repeat(MAX_HTML_NESTING + 1)}`)?.code).toBe(
      "document_too_deep",
    );
  });

  test("nesting within the limit, and implied closes however many, read as usual", () => {
    expect(htmlToText(`${"<div>".repeat(MAX_HTML_NESTING - 1)}deep${"</div>".repeat(MAX_HTML_NESTING - 1)}`).text).toBe(
      "deep",
    );
    expect(htmlToText(`<ul>${"<li>x".repeat(5_000)}</ul>`).text.split("\n")).toHaveLength(5_000);
  });

  test("a table row of 200,000 cells becomes one line without a stall", () => {
    const started = performance.now();
    const { text } = htmlToText(`<table><tr>${"<td>x".repeat(200_000)}</table>`);
    expect(text).toStartWith("x | x | x");
    expect(text.length).toBe(200_000 + 3 * 199_999);
    // A stall detector with a wide margin: reading the row once took minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("a too-deep HTML document sent to the API is a 422, and nothing is stored", async () => {
    const { apiKey } = await seedTenant(context.deps, "Pages");
    const content = `<p>hi</p>${"<span>".repeat(MAX_HTML_NESTING + 10)}`;
    const response = await context.request("POST", "/api/v1/knowledge/documents", {
      headers: { "x-api-key": apiKey },
      body: { title: "Deep", content, format: "html" },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toBe("document_too_deep");
    const list = (await (
      await context.request("GET", "/api/v1/knowledge/documents", { headers: { "x-api-key": apiKey } })
    ).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
  });
});
