/**
 * A minimal valid PDF written by hand: one page per string, each in Helvetica at the top of a
 * US Letter page, with a correct cross-reference table. Enough for PDF.js to read the text back.
 */
export function makePdf(pages: string[], title?: string): Uint8Array<ArrayBuffer> {
  return pdfOfStreams(
    pages.map((text) => `BT /F1 12 Tf 72 720 Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`),
    title,
  );
}

/**
 * A one-page PDF that draws `words` words with a text operator each (about 30 bytes a word):
 * PDF.js spends a while on that one page (some 600 ms for 100,000 words on this machine's cores).
 */
export function makeSlowPdf(words: number): Uint8Array<ArrayBuffer> {
  const operators = Array.from({ length: words }, (_, i) => `1 0 0 1 ${i % 500} ${i % 700} Tm (w${i}) Tj`);
  return pdfOfStreams([`BT /F1 12 Tf\n${operators.join("\n")}\nET`], "Slow");
}

export function pdfOfStreams(streams: string[], title?: string): Uint8Array<ArrayBuffer> {
  const objects: string[] = [];
  const pageIds = streams.map((_, index) => 5 + index * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${streams.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  objects[4] = `<< /Title (${title ?? ""}) >>`;
  streams.forEach((stream, index) => {
    const id = pageIds[index] ?? 0;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
