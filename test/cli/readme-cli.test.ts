import { describe, expect, test } from "bun:test";
import { COMMAND_HELP } from "../../src/cli/help.ts";

/** "parley X a|b …" lines of README's CLI block, as "X a" and "X b" (and "X" alone). */
async function readmeCommands(): Promise<Set<string>> {
  const readme = await Bun.file(new URL("../../README.md", import.meta.url)).text();
  const start = readme.indexOf("```", readme.indexOf("\n## CLI"));
  const block = readme.slice(start, readme.indexOf("```", start + 3));
  const listed = new Set<string>();
  for (const [, command, actions] of block.matchAll(/parley ([a-z]+)(?: ([a-z][a-z|-]*))?/g)) {
    listed.add(command ?? "");
    for (const action of actions?.split("|") ?? []) listed.add(`${command} ${action}`);
  }
  return listed;
}

describe("README's CLI block", () => {
  test("lists every command and action that parley <command> --help shows", async () => {
    const listed = await readmeCommands();
    const missing: string[] = [];
    for (const help of Object.values(COMMAND_HELP))
      for (const [, command, action] of help.matchAll(/^\s*(?:Usage: *)?parley ([a-z]+)(?: ([a-z][a-z-]*))?/gm))
        if (!listed.has(action ? `${command} ${action}` : (command ?? "")))
          missing.push(`parley ${command} ${action ?? ""}`);
    expect(missing).toEqual([]);
  });
});
