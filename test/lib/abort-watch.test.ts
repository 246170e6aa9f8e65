import { expect, test } from "bun:test";
import { unwatchAbort, watchAbort } from "../../src/lib/abort-watch.ts";

test("every waiter still watching a signal settles with its reason when it aborts, once", () => {
  const controller = new AbortController();
  const settled: string[] = [];
  const waiter = (name: string) => ({ settle: (reason: unknown) => settled.push(`${name}: ${String(reason)}`) });
  const [first, second, third] = [waiter("first"), waiter("second"), waiter("third")];
  watchAbort(controller.signal, first);
  watchAbort(controller.signal, second);
  watchAbort(controller.signal, third);
  unwatchAbort(controller.signal, second);
  controller.abort("deadline");
  controller.abort("again");
  expect(settled).toEqual(["first: deadline", "third: deadline"]);
});
