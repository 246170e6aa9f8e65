import { describe, expect, test } from "bun:test";
import { coalescer } from "../../src/db/postgres/coalesce.ts";

// @sqlite-only: no database here — the coalescer is driven by hand; on PostgreSQL it would only run again the same way

/** An item's statement, held until the test lets it end. */
interface Sent {
  items: string[];
  finish: (error?: Error) => void;
}

/** A coalescer over items "key:n" whose statements the test ends one by one. */
function harness(maxItems = 32, maxInFlight = 1) {
  const sent: Sent[] = [];
  const statement = (items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      sent.push({
        items,
        finish: (error) => (error ? reject(error) : resolve(items.map((item) => `done ${item}`))),
      });
    });
  const batches = coalescer<string, string>({
    one: async (item) => (await statement([item]))[0]!,
    many: (items) => statement([...items]),
    key: (item) => (item.startsWith("-") ? null : item.split(":")[0]!),
    maxItems,
    maxInFlight,
  });
  /** Lets the pending statements' continuations run (no timers: only promise jobs). */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { sent, run: (item: string) => batches.run(item), settle };
}

describe("coalescing statements of concurrent requests", () => {
  test("a lone call goes at once; calls made while it runs go together as one statement", async () => {
    const { sent, run, settle } = harness();
    const first = run("a:1");
    expect(sent.map((each) => each.items)).toEqual([["a:1"]]);
    const later = ["b:1", "c:1", "d:1"].map(run);
    expect(sent).toHaveLength(1);
    sent[0]!.finish();
    expect(await first).toBe("done a:1");
    await settle();
    expect(sent.map((each) => each.items)).toEqual([["a:1"], ["b:1", "c:1", "d:1"]]);
    sent[1]!.finish();
    expect(await Promise.all(later)).toEqual(["done b:1", "done c:1", "done d:1"]);
  });

  test("a batch takes at most maxItems; the rest go in the next one, in order", async () => {
    const { sent, run, settle } = harness(2);
    const all = [run("a:1"), run("b:1"), run("c:1"), run("d:1"), run("e:1")];
    for (let index = 0; index < 3; index++) {
      sent[index]!.finish();
      await settle();
    }
    expect(sent.map((each) => each.items)).toEqual([["a:1"], ["b:1", "c:1"], ["d:1", "e:1"]]);
    expect(await Promise.all(all)).toHaveLength(5);
  });

  test("two items of one key never share a batch and go in the order they came", async () => {
    const { sent, run, settle } = harness();
    const all = [run("x:0"), run("s:1"), run("t:1"), run("s:2"), run("t:2"), run("u:1")];
    sent[0]!.finish();
    await settle();
    expect(sent[1]!.items).toEqual(["s:1", "t:1", "u:1"]);
    sent[1]!.finish();
    await settle();
    expect(sent[2]!.items).toEqual(["s:2", "t:2"]);
    sent[2]!.finish();
    expect(await Promise.all(all)).toEqual(["x:0", "s:1", "t:1", "s:2", "t:2", "u:1"].map((item) => `done ${item}`));
  });

  test("an item of a key in flight waits for that batch, even with a free slot", async () => {
    const { sent, run, settle } = harness(32, 2);
    const first = run("s:1");
    const second = run("s:2");
    expect(sent.map((each) => each.items)).toEqual([["s:1"]]);
    sent[0]!.finish();
    await first;
    await settle();
    expect(sent.map((each) => each.items)).toEqual([["s:1"], ["s:2"]]);
    sent[1]!.finish();
    expect(await second).toBe("done s:2");
  });

  test("items without a key are never held back", async () => {
    const { sent, run, settle } = harness();
    const all = [run("-1"), run("-2"), run("-3")];
    sent[0]!.finish();
    await settle();
    expect(sent[1]!.items).toEqual(["-2", "-3"]);
    sent[1]!.finish();
    expect(await Promise.all(all)).toEqual(["done -1", "done -2", "done -3"]);
  });

  test("a failed batch runs each item alone: only the bad one fails its caller", async () => {
    const { sent, run, settle } = harness();
    const first = run("a:1");
    const later = ["b:1", "c:1", "d:1"].map((item) =>
      run(item).then(
        (value) => ({ ok: value }),
        (error: Error) => ({ failed: error.message }),
      ),
    );
    sent[0]!.finish();
    await first;
    await settle();
    sent[1]!.finish(new Error("violates foreign key"));
    await settle();
    expect(sent.slice(2).map((each) => each.items)).toEqual([["b:1"], ["c:1"], ["d:1"]]);
    sent[2]!.finish();
    sent[3]!.finish(new Error("c's session is gone"));
    sent[4]!.finish();
    expect(await Promise.all(later)).toEqual([
      { ok: "done b:1" },
      { failed: "c's session is gone" },
      { ok: "done d:1" },
    ]);
  });

  test("a lone item's failure reaches its caller as is", async () => {
    const { sent, run } = harness();
    const alone = run("a:1");
    sent[0]!.finish(new Error("cut"));
    await expect(alone).rejects.toThrow("cut");
    expect(sent).toHaveLength(1);
  });
});
