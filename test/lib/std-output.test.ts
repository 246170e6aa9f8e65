import { describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createSafeOutput, droppedOutputLines } from "../../src/lib/std-output.ts";
import { createLogger } from "../../src/lib/log.ts";

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** A real Node Writable whose every write fails as on a full disk: it emits 'error'. */
function fullDiskStream(fd: number) {
  const stream = new Writable({ write: (_chunk, _encoding, callback) => callback(enospc()) });
  return Object.assign(stream, { fd });
}

describe("log output that cannot be written", () => {
  test("a stdout failing with ENOSPC drops and counts the lines instead of throwing or crashing", async () => {
    const before = droppedOutputLines();
    const unhandled: unknown[] = [];
    const onError = (error: unknown) => unhandled.push(error);
    process.on("uncaughtException", onError);
    try {
      const stream = fullDiskStream(-1);
      const output = createSafeOutput(stream);
      const log = createLogger("info", () => 0, { out: output, err: output });
      expect(() => log.info({ msg: "request", status: 200 })).not.toThrow();
      await Bun.sleep(0); // let the stream report its failure (no timing involved: one turn)
      expect(() => log.error({ msg: "still going" })).not.toThrow();
      await Bun.sleep(0);
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(unhandled).toEqual([]);
    expect(droppedOutputLines() - before).toBe(2);
  });

  test("a stream whose write throws (EPIPE on a closed pipe) is survived and counted", () => {
    const before = droppedOutputLines();
    const output = createSafeOutput({
      fd: -1,
      write: () => {
        throw Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" });
      },
      on: () => undefined,
    });
    expect(() => output.write("a\n")).not.toThrow();
    expect(() => output.write("b\n")).not.toThrow();
    expect(droppedOutputLines() - before).toBe(2);
  });

  test("once space is back, lines reach the descriptor again", async () => {
    const path = join(tmpdir(), `parley-log-${crypto.randomUUID()}.txt`);
    const fd = openSync(path, "w");
    try {
      const output = createSafeOutput(fullDiskStream(fd));
      output.write("lost\n");
      await Bun.sleep(0);
      // The stream is dead for good (Node streams stay destroyed); the descriptor is not.
      output.write("written after recovery\n");
      expect(readFileSync(path, "utf8")).toBe("written after recovery\n");
    } finally {
      closeSync(fd);
      rmSync(path, { force: true });
    }
  });
});
