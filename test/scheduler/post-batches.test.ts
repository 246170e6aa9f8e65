import { expect, test } from "bun:test";
import { postBatches } from "../../src/scheduler/post-batches.ts";

test("messages pushed before the flush runs cross as one batch, in order; later ones start the next", () => {
  const posted: number[][] = [];
  const pendingFlushes: Array<() => void> = [];
  const outbox = postBatches<number>(
    (batch) => posted.push(batch),
    (flush) => pendingFlushes.push(flush),
  );
  outbox.push(1);
  outbox.push(2);
  outbox.push(3);
  expect(pendingFlushes).toHaveLength(1);
  expect(posted).toEqual([]);
  pendingFlushes.shift()?.();
  outbox.push(4);
  expect(pendingFlushes).toHaveLength(1);
  pendingFlushes.shift()?.();
  expect(posted).toEqual([[1, 2, 3], [4]]);
});

test("with queueMicrotask, what one synchronous loop pushes is posted before the next task", async () => {
  const posted: string[][] = [];
  const outbox = postBatches<string>((batch) => posted.push(batch), queueMicrotask);
  for (const id of ["a", "b", "c"]) outbox.push(id);
  await Promise.resolve();
  expect(posted).toEqual([["a", "b", "c"]]);
});
