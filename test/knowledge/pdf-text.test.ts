import { describe, expect, test } from "bun:test";
import { MAX_PDF_BYTES, pdfToText } from "../../src/knowledge/pdf-text.ts";
import { refusal } from "../helpers.ts";
import { makePdf } from "./make-pdf.ts";

describe("pdfToText", () => {
  test("each page's text becomes a section named by its page number, titled by the file's metadata", async () => {
    const pdf = await pdfToText(
      makePdf(["Opening hours: 9 to 18.", "Parking (free) behind the building."], "Clinic guide"),
    );
    expect(pdf).toEqual({
      title: "Clinic guide",
      pages: 2,
      text: "## Page 1\n\nOpening hours: 9 to 18.\n\n## Page 2\n\nParking (free) behind the building.",
    });
  });

  test("a file that is not a PDF, a broken one and one past the size cap are refused with 4xx", async () => {
    expect(await refusal(pdfToText(new TextEncoder().encode("<html>not a pdf</html>")))).toMatchObject({
      code: "pdf_unreadable",
      status: 422,
    });
    const broken = makePdf(["Hello"]).slice(0, 120);
    expect(await refusal(pdfToText(broken))).toMatchObject({ code: "pdf_unreadable", status: 422 });
    expect(await refusal(pdfToText(new Uint8Array(MAX_PDF_BYTES + 1)))).toMatchObject({
      code: "document_too_large",
      status: 413,
    });
  });
});
