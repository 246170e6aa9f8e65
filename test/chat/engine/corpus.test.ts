import { describe, expect, test } from "bun:test";
import { CORPUS } from "./corpus/index.ts";
import { conversationProblems } from "./corpus/run-corpus.ts";

/**
 * Every conversation of the corpus is one test, named for what it proves. A failure lists each
 * turn that went wrong with the reply the bot actually gave.
 */
for (const [sector, conversations] of Object.entries(CORPUS)) {
  describe(`conversation corpus: ${sector}`, () => {
    for (const conversation of conversations) {
      test(conversation.name, () => {
        expect(conversationProblems(conversation)).toEqual([]);
      });
    }
  });
}
