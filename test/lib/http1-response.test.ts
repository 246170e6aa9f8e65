import { describe, expect, test } from "bun:test";
import {
  endResponse,
  feedResponse,
  Http1Error,
  RESPONSE_HEAD_MAX_BYTES,
  responseExcerpt,
  startResponse,
} from "../../src/lib/http1-response.ts";

const EXCERPT = 1024;
const bytes = (text: string) => Buffer.from(text);

/** Feeds `response` in pieces of `step` bytes; the reader's verdict once done or out of bytes. */
function read(response: string | Buffer, step = Number.POSITIVE_INFINITY, endAfter = false) {
  const reader = startResponse(EXCERPT);
  const all = typeof response === "string" ? bytes(response) : response;
  let done = false;
  for (let at = 0; at < all.byteLength && !done; at += step) done = feedResponse(reader, all.subarray(at, at + step));
  if (!done && endAfter) done = endResponse(reader);
  return {
    done,
    status: reader.status,
    reusable: done && reader.reusable,
    excerpt: done ? responseExcerpt(reader) : null,
  };
}

function failure(response: string, step = Number.POSITIVE_INFINITY): Http1Error {
  try {
    read(response, step, true);
  } catch (error) {
    if (error instanceof Http1Error) return error;
    throw error;
  }
  throw new Error("expected the reader to refuse the response");
}

const CHUNKED =
  "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" +
  "4;name=value\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nx-trailer: 1\r\n\r\n";

describe("reading an HTTP/1.1 response", () => {
  test("a body framed by content-length, whole or one byte at a time, leaves the connection reusable", () => {
    const response = "HTTP/1.1 201 Created\r\ncontent-length: 5\r\nx-a: b\r\n\r\nhello";
    for (const step of [Number.POSITIVE_INFINITY, 1, 7]) {
      expect(read(response, step)).toEqual({ done: true, status: 201, reusable: true, excerpt: "hello" });
    }
  });

  test("a chunked body with extensions and trailers is read whole, one byte at a time too", () => {
    for (const step of [Number.POSITIVE_INFINITY, 1, 3]) {
      expect(read(CHUNKED, step)).toEqual({
        done: true,
        status: 200,
        reusable: true,
        excerpt: "Wikipedia in \r\n\r\nchunks.",
      });
    }
  });

  test("interim 100 Continue and 103 answers are skipped for the final one", () => {
    const response =
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 202 Accepted\r\ncontent-length: 2\r\n\r\nok";
    expect(read(response, 5)).toEqual({ done: true, status: 202, reusable: true, excerpt: "ok" });
  });

  test("a head over the cap is refused as too large, with or without its end in sight", () => {
    const long = `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(RESPONSE_HEAD_MAX_BYTES)}\r\n`;
    expect(failure(long).code).toBe("response_head_too_large");
    expect(failure(`${long}\r\n`, 1000).code).toBe("response_head_too_large");
    const trailers = `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\nx: ${"t".repeat(RESPONSE_HEAD_MAX_BYTES)}\r\n\r\n`;
    expect(failure(trailers, 512).code).toBe("response_head_too_large");
  });

  test("garbage, a bad header line, a bad chunk size and conflicting lengths are malformed", () => {
    for (const response of [
      "SSH-2.0-OpenSSH_9.6\r\n\r\n",
      "HTTP/1.1 2000 OK\r\n\r\n",
      "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
      "HTTP/1.1 200 OK\r\n folded: value\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: 5, 6\r\n\r\nhello",
      "HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabX\r\n",
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
    ]) {
      expect(failure(response).code).toBe("malformed_response");
    }
  });

  test("a peer closing mid-head or mid-body cuts the response short", () => {
    expect(failure("HTTP/1.1 200 OK\r\ncontent-le").code).toBe("connection_closed");
    expect(failure("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc").code).toBe("connection_closed");
    expect(failure("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab").code).toBe("connection_closed");
  });

  test("a body without length or chunking runs until the close and never leaves the connection reusable", () => {
    expect(read("HTTP/1.1 200 OK\r\n\r\nuntil close", 4)).toMatchObject({ done: false });
    expect(read("HTTP/1.1 200 OK\r\n\r\nuntil close", 4, true)).toEqual({
      done: true,
      status: 200,
      reusable: false,
      excerpt: "until close",
    });
  });

  test("connection: close, HTTP/1.0, both framings, or bytes past the end make the connection single-use", () => {
    const single = [
      "HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\ncontent-length: 2\r\n\r\nok",
      "HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok",
      "HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n",
    ];
    for (const response of single) expect(read(response)).toMatchObject({ done: true, excerpt: "ok", reusable: false });
  });

  test("204 and 304 end at their head whatever they declare", () => {
    expect(read("HTTP/1.1 204 No Content\r\ncontent-length: 9\r\n\r\n")).toEqual({
      done: true,
      status: 204,
      reusable: true,
      excerpt: "",
    });
  });

  test("a 10 MB body ends the read once the excerpt is full, without the rest, and the connection is not reused", () => {
    const head = bytes("HTTP/1.1 200 OK\r\ncontent-length: 10485760\r\n\r\n");
    const first = Buffer.alloc(head.byteLength + 65_536, 120);
    first.set(head);
    expect(read(first)).toEqual({ done: true, status: 200, reusable: false, excerpt: "x".repeat(EXCERPT) });
    const chunked = bytes(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n100000\r\n${"y".repeat(2000)}`);
    expect(read(chunked, 100)).toMatchObject({ done: true, reusable: false, excerpt: "y".repeat(EXCERPT) });
  });

  test("the excerpt drops a character cut at 1 KiB and replaces invalid bytes, as a streamed read decodes", () => {
    const cut = `${"a".repeat(EXCERPT - 1)}é and more`;
    const long = read(`HTTP/1.1 200 OK\r\ncontent-length: ${bytes(cut).byteLength}\r\n\r\n${cut}`);
    expect(long.excerpt).toBe("a".repeat(EXCERPT - 1));
    const invalid = Buffer.from([...bytes("HTTP/1.1 500 x\r\ncontent-length: 4\r\n\r\n"), 0x6f, 0xff, 0x6b, 0xc3]);
    expect(read(invalid).excerpt).toBe("o\uFFFDk\uFFFD");
  });
});
