import { invalidField } from "../lib/validate.ts";
import { AppError } from "../lib/app-error.ts";
import { parseRequestJson } from "../lib/safe-json.ts";
import { MAX_PDF_BYTES } from "../knowledge/pdf-text.ts";

export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => new AppError("payload_too_large", 413, `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
const notJson = () =>
  new AppError("unsupported_media_type", 415, "Send the body as JSON with Content-Type: application/json.");

// The exact bytes of each parsed body, for routes that verify a signature over them (the
// payment hook): the parser consumes the body, so it keeps what it read.
const RAW_BODIES = new WeakMap<Request, Uint8Array>();

/** The raw body the JSON parser read for this request (empty when there was none). */
export const rawBodyOf = (request: Request): Uint8Array => RAW_BODIES.get(request) ?? new Uint8Array();

/**
 * Parses the body's text, refusing one past the shape limits (src/lib/safe-json.ts) before any
 * validation sees it. Every body is an object: Elysia would read `[]` or `null` as `{}` and answer
 * as if fields were missing, so any other JSON value is refused here, as a string body is.
 */
function parseBodyText(bytes: Buffer): unknown {
  const value = parseRequestJson(bytes.toString("utf8"));
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidField("(body)", "must be a JSON object");
  return value;
}

/** Routes that take one raw PDF (Content-Type: application/pdf) instead of JSON, each with its own size cap. */
export const RAW_UPLOAD_ROUTES: Readonly<Record<string, { maxBytes: number }>> = {
  "/api/v1/knowledge/sources/pdf": { maxBytes: MAX_PDF_BYTES },
};

/** A raw upload's bytes (a Uint8Array body), read with its cap enforced as it arrives; null when the request is not one. */
async function readRawUpload(request: Request, contentType: string): Promise<Uint8Array | null> {
  // The type first: a JSON request (every chat message) pays one regular expression, no URL parse.
  if (!/^application\/pdf\b/i.test(contentType)) return null;
  const upload = RAW_UPLOAD_ROUTES[new URL(request.url).pathname];
  if (!upload) return null;
  const overCap = () =>
    new AppError("payload_too_large", 413, `The file is larger than ${upload.maxBytes / 1024 / 1024} MB.`);
  if (Number(request.headers.get("content-length") ?? "0") > upload.maxBytes) throw overCap();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > upload.maxBytes) throw overCap();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * A request that declares JSON but carries no bytes (`curl -H 'content-type: application/json' -d ''`)
 * reaches no parser: the server hands Elysia no body stream, and the route would validate nothing
 * as if it were `{}`. It is 400 invalid_json, as an empty body that did arrive is.
 */
export function refuseBodilessJson(request: Request): void {
  if (!BODY_METHODS.has(request.method)) return;
  const { headers } = request;
  const length = headers.get("content-length");
  if (length === null ? headers.has("transfer-encoding") || request.body !== null : length !== "0") return;
  if (JSON_TYPE.test(headers.get("content-type") ?? ""))
    throw new AppError("invalid_json", 400, "The request body is empty, but its Content-Type says JSON.");
}

/**
 * Reads a JSON body with the size limit enforced while reading (a missing or lying
 * Content-Length cannot get more than the limit into memory) and the shape limits checked in
 * one pass before parsing. Text that is not JSON, or nests too much, is 400 invalid_json.
 */
export async function parseJsonBody(request: Request, contentType: string): Promise<unknown> {
  const upload = await readRawUpload(request, contentType);
  if (upload) return upload;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // A POST with no body and no content type (e.g. a re-trigger) is an empty object, not an error.
  if (!contentType && declared === 0 && !request.headers.has("transfer-encoding")) return {};
  if (!JSON_TYPE.test(contentType)) throw notJson();
  if (!request.body) return parseRequestJson("");
  if (declared > 0) {
    // A declared length within the limit: read it whole (cheaper than a chunk loop); a body
    // longer than it declared is cut off by the server, never buffered past the limit.
    const bytes = Buffer.from(await request.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    RAW_BODIES.set(request, bytes);
    return parseBodyText(bytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  RAW_BODIES.set(request, bytes);
  // An empty body is not JSON either: 400 invalid_json.
  return parseBodyText(bytes);
}
