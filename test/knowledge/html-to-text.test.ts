import { describe, expect, test } from "bun:test";
import { htmlToText } from "../../src/knowledge/html-to-text.ts";
import { chunkText } from "../../src/knowledge/chunk-text.ts";

describe("htmlToText", () => {
  test("headings become markdown headings, blocks paragraphs and list items lines", () => {
    const { title, text } =
      htmlToText(`<!doctype html><html><head><title> Smile  Dental </title><style>h1{color:red}</style></head>
      <body><nav><a href="/">Home</a> <a href="/x">Menu item</a></nav>
      <h1>Our prices</h1><p>A check-up costs <b>45&nbsp;EUR</b> &amp; includes an X-ray.</p>
      <h2>Payment</h2><ul><li>Card</li><li>Cash</li></ul>
      <script>alert("secret script text")</script></body></html>`);
    expect(title).toBe("Smile Dental");
    expect(text).toBe("# Our prices\n\nA check-up costs 45 EUR & includes an X-ray.\n\n## Payment\n\n- Card\n- Cash");
  });

  test("scripts, styles, templates and navigation never reach the text", () => {
    const { text } = htmlToText(
      "<p>Visible</p><script>var hidden = 1;</script><template><p>tpl</p></template><noscript>ns</noscript><svg><text>svg</text></svg>",
    );
    expect(text).toBe("Visible");
  });

  test("malformed HTML still yields its text", () => {
    const { title, text } = htmlToText("<div><p>Unclosed paragraph<p>Second <i>italic</div><h3>Tail");
    expect(title).toBeNull();
    expect(text).toContain("Unclosed paragraph");
    expect(text).toContain("Second italic");
    expect(text).toContain("### Tail");
  });

  test("the converted text chunks along the page's headings", () => {
    const { text } = htmlToText(
      "<h1>Clinic</h1><h2>Hours</h2><p>Mon-Fri 9-17</p><h2>Parking</h2><p>Free behind the building</p>",
    );
    expect(chunkText(text, { markdown: true })).toEqual([
      { heading: "Clinic › Hours", text: "Mon-Fri 9-17" },
      { heading: "Clinic › Parking", text: "Free behind the building" },
    ]);
  });

  test("table cells are kept apart on one line per row", () => {
    const { text } = htmlToText(
      "<table><tr><th>Service</th><th>Price</th></tr><tr><td>Cleaning</td><td>60 EUR</td></tr></table>",
    );
    expect(text).toBe("Service | Price\n\nCleaning | 60 EUR");
  });
});
