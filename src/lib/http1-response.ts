/**
 * An HTTP/1.1 response read incrementally from socket bytes, for a client that keeps only the
 * first bytes of the body (src/lib/http1-client.ts). The receiver is untrusted: every size is
 * capped, every framing rule is checked, and anything malformed is an Http1Error, never a
 * crash or a wait without end (the caller's deadline bounds the waiting).
 */

/** The status line and headers, interim (1xx) responses and chunked trailers included. */
export const RESPONSE_HEAD_MAX_BYTES = 16 * 1024;
/** A chunk-size line with its extensions. */
const CHUNK_LINE_MAX_BYTES = 1024;

export class Http1Error extends Error {
  override name = "Http1Error";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const malformed = (why: string) => new Http1Error("malformed_response", why);

const STATUS_CODE = /^[1-5]\d\d$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONTENT_LENGTH = /^\d{1,15}$/;
const CHUNK_SIZE = /^[0-9a-fA-F]{1,12}$/;

type Phase = "head" | "length" | "close" | "chunk-size" | "chunk-data" | "chunk-end" | "trailers" | "done";

/**
 * One response being read: a plain record and functions rather than a closure per response,
 * since a webhook sender starts one for every delivery and the closures showed in its CPU time.
 */
export interface ResponseRead {
  readonly excerptBytes: number;
  phase: Phase;
  /** The final (non-1xx) status once its head is read, else null. */
  status: number | null;
  /** Once done: whether the connection may carry another request. */
  reusable: boolean;
  keepAlive: boolean;
  /** The declared body length; null when chunked or until close. */
  length: number | null;
  headText: string;
  headBytesSeen: number;
  remaining: number;
  line: string;
  excerpt: Uint8Array | null;
  filled: number;
}

const wholeDecoder = new TextDecoder();

/**
 * The excerpt's text as `Response.text()` or a streamed read would give it: a short declared
 * body decodes whole (an invalid or cut character becomes U+FFFD); a longer or undeclared one
 * decodes as a stream, so a multi-byte character cut at the excerpt's end is left out.
 */
export function decodeExcerpt(bytes: Uint8Array, declaredLength: number | null, excerptBytes: number): string {
  if (bytes.byteLength === 0) return "";
  const whole = declaredLength !== null && declaredLength <= excerptBytes;
  // A streaming decoder keeps a cut character for the next call, so each excerpt gets its own.
  return whole ? wholeDecoder.decode(bytes) : new TextDecoder().decode(bytes, { stream: true });
}

const latin1 = (bytes: Buffer, from: number, to: number): string => bytes.toString("latin1", from, to);

const tooLarge = (what: string, max: number) => new Http1Error("response_head_too_large", `${what} over ${max} bytes`);

function finish(read: ResponseRead, cleanEnd: boolean): void {
  read.phase = "done";
  read.reusable = cleanEnd && read.keepAlive;
}

/** Reads a head's status line and the headers that frame the body into `read`; returns the status. */
function parseHead(read: ResponseRead, text: string): number {
  let lineEnd = text.indexOf("\r\n");
  if (lineEnd < 0) lineEnd = text.length;
  // "HTTP/1.x NNN" and an optional reason, checked by hand: this runs for every delivery.
  const status = Number(text.slice(9, 12));
  const minor = text.charCodeAt(7);
  const statusLineOk =
    text.startsWith("HTTP/1.") &&
    (minor === 48 || minor === 49) &&
    text.charCodeAt(8) === 32 &&
    STATUS_CODE.test(text.slice(9, 12)) &&
    (lineEnd === 12 || text.charCodeAt(12) === 32);
  if (!statusLineOk) throw malformed("bad status line");
  let keepAlive = minor === 49;
  let length: number | null = null;
  let transferEncoding: string | null = null;
  while (lineEnd < text.length) {
    const start = lineEnd + 2;
    lineEnd = text.indexOf("\r\n", start);
    if (lineEnd < 0) lineEnd = text.length;
    const colon = text.indexOf(":", start);
    const name = colon > start && colon < lineEnd ? text.slice(start, colon) : "";
    // Also refuses obsolete folded lines (leading space), which RFC 9112 lets a client reject.
    if (!TOKEN.test(name)) throw malformed("bad header line");
    // Only names as long as the three that frame the body are lowercased (toLowerCase allocates).
    const lower = name.length === 14 || name.length === 17 || name.length === 10 ? name.toLowerCase() : "";
    if (lower === "content-length") {
      for (const part of text.slice(colon + 1, lineEnd).split(",")) {
        const trimmed = part.trim();
        if (!CONTENT_LENGTH.test(trimmed)) throw malformed("bad content-length");
        // Differing lengths are how responses get smuggled: refused, not guessed.
        if (length !== null && length !== Number(trimmed)) throw malformed("conflicting content-length");
        length = Number(trimmed);
      }
    } else if (lower === "transfer-encoding") {
      const value = text.slice(colon + 1, lineEnd).trim();
      transferEncoding = transferEncoding === null ? value : `${transferEncoding},${value}`;
    } else if (lower === "connection") {
      const tokens = text
        .slice(colon + 1, lineEnd)
        .toLowerCase()
        .split(",");
      if (tokens.some((token) => token.trim() === "close")) keepAlive = false;
    }
  }
  let chunked = false;
  if (transferEncoding !== null) {
    // Transfer-Encoding overrides Content-Length, and a response carrying both is not trusted
    // to frame the next one: the connection is closed after it (RFC 9112 §6.3).
    chunked = transferEncoding.toLowerCase().split(",").at(-1)?.trim() === "chunked";
    if (length !== null) keepAlive = false;
    length = null;
  }
  if (status < 200) return status;
  // A body that runs until the close leaves nothing to reuse.
  read.keepAlive = keepAlive && (chunked || length !== null);
  read.length = length;
  if (status === 204 || status === 304 || length === 0) finish(read, true);
  else if (chunked) read.phase = "chunk-size";
  else if (length === null) read.phase = "close";
  else {
    read.phase = "length";
    read.remaining = length;
  }
  return status;
}

/** Copies body bytes [from, to) into the excerpt while it has room. */
function keep(read: ResponseRead, bytes: Uint8Array, from: number, to: number): void {
  const room = read.excerptBytes - read.filled;
  if (room <= 0 || to <= from) return;
  read.excerpt ??= new Uint8Array(Math.min(read.excerptBytes, read.length ?? read.excerptBytes));
  const stop = Math.min(to, from + room);
  // A short body is copied byte by byte: a subarray costs more than the copy.
  if (stop - from <= 64) for (let at = from; at < stop; at++) read.excerpt[read.filled++] = bytes[at] ?? 0;
  else {
    read.excerpt.set(bytes.subarray(from, stop), read.filled);
    read.filled += stop - from;
  }
}

/** Consumes head bytes from `from`; returns where it stopped. */
function readHead(read: ResponseRead, bytes: Buffer, from: number): number {
  const before = read.headText.length;
  read.headText += latin1(bytes, from, bytes.byteLength);
  const end = read.headText.indexOf("\r\n\r\n", Math.max(0, before - 3));
  const headSize = end < 0 ? read.headText.length : end + 4;
  if (read.headBytesSeen + headSize > RESPONSE_HEAD_MAX_BYTES) throw tooLarge("response head", RESPONSE_HEAD_MAX_BYTES);
  if (end < 0) return bytes.byteLength;
  read.headBytesSeen += headSize;
  const status = parseHead(read, read.headText.slice(0, end));
  read.headText = "";
  // 101 would hand the connection to another protocol nobody asked for; other 1xx answers
  // (100 Continue, 103 Early Hints) are interim: the final one follows.
  if (status === 101) throw malformed("unexpected 101");
  if (status >= 200) read.status = status;
  return from + headSize - before;
}

/** Consumes one CRLF-ended line into `read.line`; returns where it stopped, and the line once complete. */
function readLine(read: ResponseRead, bytes: Buffer, from: number, max: number, what: string) {
  const newline = bytes.indexOf(10, from);
  const stop = newline < 0 ? bytes.byteLength : newline + 1;
  read.line += latin1(bytes, from, stop);
  if (read.line.length > max) throw tooLarge(what, max);
  if (newline < 0) return { stop, line: null };
  if (!read.line.endsWith("\r\n")) throw malformed(`${what} not ended by CRLF`);
  const line = read.line.slice(0, -2);
  read.line = "";
  return { stop, line };
}

function readChunked(read: ResponseRead, bytes: Buffer, from: number): number {
  if (read.phase === "chunk-data") {
    const stop = Math.min(bytes.byteLength, from + read.remaining);
    keep(read, bytes, from, stop);
    read.remaining -= stop - from;
    if (read.remaining === 0) read.phase = "chunk-end";
    return stop;
  }
  const trailers = read.phase === "trailers";
  const what = trailers ? "response head and trailers" : "chunk size line";
  const { stop, line } = readLine(read, bytes, from, trailers ? RESPONSE_HEAD_MAX_BYTES : CHUNK_LINE_MAX_BYTES, what);
  if (trailers) {
    read.headBytesSeen += stop - from;
    if (read.headBytesSeen > RESPONSE_HEAD_MAX_BYTES) throw tooLarge(what, RESPONSE_HEAD_MAX_BYTES);
  }
  if (line === null) return stop;
  if (read.phase === "chunk-end") {
    if (line !== "") throw malformed("chunk not ended by CRLF");
    read.phase = "chunk-size";
  } else if (trailers) {
    if (line === "") finish(read, true);
  } else {
    // Chunk extensions (";name=value") carry nothing a webhook sender needs.
    const size = (line.split(";")[0] ?? "").trim();
    if (!CHUNK_SIZE.test(size)) throw malformed("bad chunk size");
    read.remaining = Number.parseInt(size, 16);
    read.phase = read.remaining === 0 ? "trailers" : "chunk-data";
  }
  return stop;
}

/** Starts reading one response to a request that has a body (so 204 and 304 answer without one). */
export const startResponse = (excerptBytes: number): ResponseRead => ({
  excerptBytes,
  phase: "head",
  status: null,
  reusable: false,
  keepAlive: false,
  length: null,
  headText: "",
  headBytesSeen: 0,
  remaining: 0,
  line: "",
  excerpt: null,
  filled: 0,
});

/** Feeds the next bytes; true once the response is read as far as it will be. */
export function feedResponse(read: ResponseRead, bytes: Buffer): boolean {
  let at = 0;
  while (at < bytes.byteLength && read.phase !== "done") {
    if (read.phase === "head") at = readHead(read, bytes, at);
    else if (read.phase === "length") {
      const stop = Math.min(bytes.byteLength, at + read.remaining);
      keep(read, bytes, at, stop);
      read.remaining -= stop - at;
      at = stop;
      if (read.remaining === 0) finish(read, true);
    } else if (read.phase === "close") {
      keep(read, bytes, at, bytes.byteLength);
      at = bytes.byteLength;
    } else at = readChunked(read, bytes, at);
  }
  // Bytes past the response's end were never asked for: the connection is not trusted again.
  if (read.phase === "done" && at < bytes.byteLength) read.reusable = false;
  // The excerpt is full and the body goes on: the rest is not worth reading (or waiting for).
  if (read.phase !== "done" && read.status !== null && read.filled >= read.excerptBytes) finish(read, false);
  return read.phase === "done";
}

/** The peer closed: true when that ends the response (a body until close), else throws (cut short). */
export function endResponse(read: ResponseRead): boolean {
  if (read.phase === "done") return true;
  if (read.phase === "close") {
    finish(read, false);
    return true;
  }
  const where = read.phase === "head" ? "before the response head ended" : "before the response body ended";
  throw new Http1Error("connection_closed", `the receiver closed the connection ${where}`);
}

/** Once done: the first `excerptBytes` of the body, decoded. */
export const responseExcerpt = (read: ResponseRead): string =>
  read.excerpt === null
    ? ""
    : decodeExcerpt(
        read.filled === read.excerpt.byteLength ? read.excerpt : read.excerpt.subarray(0, read.filled),
        read.length,
        read.excerptBytes,
      );
