import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildTestApp, type TestContext } from "../helpers.ts";

// docs/chatbot.md "Talk to the bot" is what a new user pastes first: its curl lines are sent as
// written (placeholders filled in) to a tenant made the way the page makes one, with --origins.

interface CurlLine {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The curl commands of the section, continuation lines joined; -X, -H, -d and the URL are read. */
async function curlLinesOf(section: string): Promise<CurlLine[]> {
  const page = await Bun.file(new URL("../../docs/chatbot.md", import.meta.url)).text();
  const start = page.indexOf(section);
  const block = page.slice(page.indexOf("```sh", start), page.indexOf("```\n", page.indexOf("```sh", start) + 5));
  const commands = block
    .replaceAll("\\\n", " ")
    .split("\n")
    .filter((line) => line.startsWith("curl "));
  return commands.map((command) => {
    const words = [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
      (match) => match[1] ?? match[2] ?? match[3] ?? "",
    );
    const line: CurlLine = { method: "GET", path: "", headers: {} };
    for (let index = 1; index < words.length; index++) {
      const word = words[index] ?? "";
      if (word === "-X") line.method = words[++index] ?? "";
      else if (word === "-H") {
        const [name, ...value] = (words[++index] ?? "").split(":");
        line.headers[(name ?? "").toLowerCase()] = value.join(":").trim();
      } else if (word === "-d") line.body = words[++index];
      else if (word.startsWith("http")) line.path = word.replace(/^https?:\/\/[^/]+/, "");
    }
    if (line.body !== undefined && line.method === "GET") line.method = "POST";
    return line;
  });
}

let context: TestContext;
let tenantId = "";
beforeAll(async () => {
  context = buildTestApp({ rateLimits: false });
  tenantId = (await createTenant(context.deps, { name: "Smile Dental", origins: ["https://smile.example"] })).id;
});
afterAll(() => context.close());

describe("docs/chatbot.md, talking to the bot from a website", () => {
  test("each step works as written against a tenant that allows only its site", async () => {
    const lines = await curlLinesOf("**From a website**");
    expect(lines.map((line) => `${line.method} ${line.path.split("?")[0]}`)).toEqual([
      "POST /api/v1/widget/session",
      "POST /api/v1/chatbot/message",
      "GET /api/v1/chatbot/sessions/ses_…/messages",
    ]);
    const filled = { token: "", session: "", message: "" };
    for (const line of lines) {
      const fill = (text: string) =>
        text
          .replaceAll("ten_…", tenantId)
          .replaceAll("$VISITOR_TOKEN", filled.token)
          .replaceAll("ses_…", filled.session)
          .replaceAll("msg_…", filled.message);
      const headers = Object.fromEntries(Object.entries(line.headers).map(([name, value]) => [name, fill(value)]));
      const response = await context.request(line.method, fill(line.path), {
        headers,
        rawBody: line.body === undefined ? undefined : fill(line.body),
      });
      const answer = (await response.json()) as Record<string, string>;
      expect({ step: `${line.method} ${line.path}`, status: response.status, error: answer.error }).toEqual({
        step: `${line.method} ${line.path}`,
        status: line.path.endsWith("/widget/session") ? 201 : 200,
        error: undefined,
      });
      filled.token ||= answer.access_token ?? "";
      filled.session ||= answer.session_id ?? "";
      filled.message ||= answer.message_id ?? "";
    }
  });
});
