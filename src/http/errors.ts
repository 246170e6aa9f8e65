import type { ValidationError } from "elysia";
import { AppError } from "../lib/app-error.ts";
import { storageTroubleOf } from "../db/storage-errors.ts";
import type { Logger } from "../lib/log.ts";

export interface ErrorBody {
  error: string;
  message: string;
  details?: unknown;
}

/** Seconds a client is told to wait: a held lock passes quickly, a full disk needs an operator. */
export const BUSY_RETRY_AFTER_S = 1;
export const STORAGE_FULL_RETRY_AFTER_S = 30;

export const storageBusyError = (): AppError =>
  new AppError("busy", 503, "The database is busy with another process; try again in a moment.", undefined, { "retry-after": String(BUSY_RETRY_AFTER_S) });

export const storageFullError = (): AppError =>
  new AppError("storage_full", 503, "The server cannot store anything right now: its disk is full. Nothing was saved; try again later.", undefined, {
    "retry-after": String(STORAGE_FULL_RETRY_AFTER_S),
  });

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

function validationDetails(error: ValidationError): Array<{ field: string; message: string }> {
  return error.all.map((issue) => {
    const path = "path" in issue && typeof issue.path === "string" ? issue.path : "";
    const summary = "summary" in issue && typeof issue.summary === "string" ? issue.summary : undefined;
    return { field: path.replace(/^\//, "").replaceAll("/", ".") || "(body)", message: summary ?? issue.message ?? "is invalid" };
  });
}

/**
 * The one place that turns a thrown error into a response. Elysia's own error codes map to
 * the DESIGN §3 table; AppError carries its own; anything else is a bug: logged with the
 * request id, answered 500 with no internals.
 */
export function toErrorResponse(code: string | number, error: unknown, requestId: string, log: Logger): Response {
  const trouble = storageTroubleOf(error);
  const cause = trouble === "busy" ? storageBusyError() : trouble === "storage_full" ? storageFullError() : error instanceof Error && error.cause instanceof AppError ? error.cause : error;
  if (cause instanceof AppError) {
    const body: ErrorBody = { error: cause.code, message: cause.message };
    if (cause.details !== undefined) body.details = cause.details;
    return jsonResponse(cause.status, body, cause.headers);
  }
  switch (code) {
    case "VALIDATION": {
      const details = validationDetails(error as ValidationError);
      const first = details[0];
      const message = first ? `${first.field}: ${first.message}` : "The request is not valid.";
      return jsonResponse(422, { error: "validation_failed", message, details });
    }
    case "PARSE":
      return jsonResponse(400, { error: "invalid_json", message: "The request body is not valid JSON." });
    case "NOT_FOUND":
      return jsonResponse(404, { error: "not_found", message: "No such route." });
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return jsonResponse(400, { error: "bad_request", message: "The request is not valid." });
  }
  log.error({ msg: "unhandled error", request_id: requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return jsonResponse(500, { error: "internal_error", message: `Something went wrong on our side (request ${requestId}).` });
}
