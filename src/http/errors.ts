import type { ValidationError } from "elysia";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { AppError } from "../lib/app-error.ts";
import { isStorageUnreachable, isUnstorableText, storageTroubleOf } from "../db/storage-errors.ts";
import type { Logger } from "../lib/log.ts";
import { ID_PATTERN } from "./schema.ts";

export interface ErrorBody {
  error: string;
  message: string;
  details?: unknown;
}

export const unstorableTextError = (): AppError =>
  new AppError(
    "invalid_text",
    400,
    "The request contains a character that cannot be stored (a NUL byte or invalid text).",
  );

/** Seconds a client is told to wait: a held lock passes quickly, a full disk needs an operator. */
export const BUSY_RETRY_AFTER_S = 1;
export const STORAGE_FULL_RETRY_AFTER_S = 30;

export const storageBusyError = (): AppError =>
  new AppError("busy", 503, "The database is busy with another process; try again in a moment.", undefined, {
    "retry-after": String(BUSY_RETRY_AFTER_S),
  });

export const storageUnreachableError = (): AppError =>
  new AppError(
    "database_unavailable",
    503,
    "The database cannot be reached right now; try again in a moment.",
    undefined,
    { "retry-after": String(BUSY_RETRY_AFTER_S) },
  );

export const storageFullError = (): AppError =>
  new AppError(
    "storage_full",
    503,
    "The server cannot store anything right now: its disk is full. Nothing was saved; try again later.",
    undefined,
    {
      "retry-after": String(STORAGE_FULL_RETRY_AFTER_S),
    },
  );

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

/** The parts of a TypeBox schema that a validation message speaks of. */
interface SchemaFacts {
  const?: unknown;
  pattern?: string;
  title?: string;
  anyOf?: SchemaFacts[];
  type?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

const FORMAT_NAMES: Record<string, string> = { uri: "URL", email: "e-mail address", "date-time": "ISO 8601 time" };

function numberRule(schema: SchemaFacts): string {
  const kind = schema.type === "integer" || schema.multipleOf === 1 ? "a whole number" : "a number";
  const { minimum: min, maximum: max } = schema;
  const range =
    min !== undefined && max !== undefined
      ? ` from ${min} to ${max}`
      : min !== undefined
        ? ` of at least ${min}`
        : max !== undefined
          ? ` of at most ${max}`
          : "";
  return `must be ${kind}${range}`;
}

function lengthRule(schema: SchemaFacts): string {
  const { minLength: min, maxLength: max } = schema;
  if (min !== undefined && max !== undefined) return `must be ${min} to ${max} characters`;
  if (max !== undefined) return `must be at most ${max} characters`;
  return min === undefined || min <= 1 ? "must not be empty" : `must be at least ${min} characters`;
}

/**
 * A value of one branch's JSON type is told what that branch needs: an empty list where "a text
 * or a list of texts" is asked must have an item, not be "not valid".
 */
function matchingBranchRule(issue: ValueError, members: SchemaFacts[]): string | null {
  const kind = Array.isArray(issue.value) ? "array" : issue.value === null ? "null" : typeof issue.value;
  const index = members.findIndex((member) => member.type === kind);
  const first = index < 0 ? undefined : issue.errors[index]?.First();
  return first ? describeIssue(first) : null;
}

/** A union of literals (an enum) lists its values; a numeric query field (`t.Numeric`) states its range. */
function unionRule(issue: ValueError): string {
  const schema = issue.schema as SchemaFacts;
  const members = schema.anyOf ?? [];
  const values = members.filter((member) => member.const !== undefined).map((member) => String(member.const));
  if (values.length === members.length && values.length > 0) return `must be one of: ${values.join(", ")}`;
  const numeric = members.find((member) => member.type === "number" || member.type === "integer");
  if (numeric) return numberRule(numeric);
  // t.BooleanString: a boolean, or its text in a query
  if (members.some((member) => member.type === "boolean")) return "must be true or false";
  const branch = matchingBranchRule(issue, members);
  if (branch) return branch;
  if (members.some((member) => member.type === "null"))
    return `must be ${members
      .filter((member) => member.type !== "null")
      .map((member) => member.type ?? "a value")
      .join(" or ")} or null`;
  return "is not valid";
}

/** One sentence per failed rule, naming what the field must be rather than what TypeBox checked. */
function describeIssue(issue: ValueError): string {
  const schema = issue.schema as SchemaFacts;
  switch (issue.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return "is not a known field";
    case ValueErrorType.Object:
      return "must be a JSON object";
    case ValueErrorType.String:
      return "must be a string";
    case ValueErrorType.Boolean:
      return "must be true or false";
    case ValueErrorType.Null:
      return "must be null";
    case ValueErrorType.Number:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.NumberMultipleOf:
    case ValueErrorType.Integer:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.IntegerMultipleOf:
      return numberRule(schema);
    case ValueErrorType.StringMinLength:
    case ValueErrorType.StringMaxLength:
      return lengthRule(schema);
    case ValueErrorType.StringPattern:
      return schema.pattern === ID_PATTERN
        ? "must be an id as the API gives them, such as ses_01kb5r8yzqxq9c3d4e5f6g7h8j"
        : "is not in the expected format";
    case ValueErrorType.StringFormat:
      return `must be a valid ${FORMAT_NAMES[schema.format ?? ""] ?? schema.format}`;
    case ValueErrorType.Array:
      return "must be an array";
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} items`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union:
      return unionRule(issue);
    default:
      return issue.message;
  }
}

/**
 * Every body schema is an object. Elysia spreads a string or array body into an object before
 * checking it ("hi" arrives as {"0": "h", "1": "i"}, plus any defaults), so its characters would
 * come back as unknown fields and bury the one real problem. No Parley body has a field "0".
 */
function isJsonObjectBody(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Object.hasOwn(value, "0");
}

/**
 * An issue without a path is about the whole body, or (type "property") a numeric query field
 * Elysia checked on its own, which `queryWholeNumber` names with its `title`.
 */
function pathlessField(type: string, issue: ValueError): string {
  return type === "property" ? ((issue.schema as SchemaFacts).title ?? "(query)") : "(body)";
}

/** At most this many fields are described, each name cut to FIELD_NAME_MAX: a 422 stays a few KiB whatever was sent. */
export const MAX_VALIDATION_DETAILS = 20;
const FIELD_NAME_MAX = 100;
const MESSAGE_MAX = 200;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * One detail per field, the first rule it broke: TypeBox reports a missing field twice (required,
 * then the wrong type of `undefined`), and a client needs one sentence per field to fix it.
 */
export function validationDetails(error: ValidationError): Array<{ field: string; message: string }> {
  if (error.type === "body" && !isJsonObjectBody(error.value))
    return [{ field: "(body)", message: "must be a JSON object" }];
  const byField = new Map<string, string>();
  for (const issue of error.all) {
    if (!("type" in issue) || typeof issue.type !== "number") continue;
    const field = clip(
      issue.path.replace(/^\//, "").replaceAll("/", ".") || pathlessField(error.type, issue),
      FIELD_NAME_MAX,
    );
    if (!byField.has(field)) byField.set(field, clip(describeIssue(issue), MESSAGE_MAX));
    if (byField.size === MAX_VALIDATION_DETAILS) break;
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/**
 * The one place that turns a thrown error into a response. Elysia's own error codes map to
 * the DESIGN §3 table; AppError carries its own; anything else is a bug: logged with the
 * request id, answered 500 with no internals.
 */
export function toErrorResponse(code: string | number, error: unknown, requestId: string, log: Logger): Response {
  const trouble = storageTroubleOf(error);
  const cause =
    trouble === "busy"
      ? isStorageUnreachable(error)
        ? storageUnreachableError()
        : storageBusyError()
      : trouble === "storage_full"
        ? storageFullError()
        : isUnstorableText(error)
          ? unstorableTextError()
          : error instanceof Error && error.cause instanceof AppError
            ? error.cause
            : error;
  if (cause instanceof AppError) {
    const body: ErrorBody = { error: cause.code, message: cause.message };
    if (cause.details !== undefined) body.details = cause.details;
    return jsonResponse(cause.status, body, cause.headers);
  }
  switch (code) {
    case "VALIDATION": {
      // A handler's answer that breaks its own response schema is our bug, not the client's.
      if ((error as ValidationError).type === "response") break;
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
  log.error({
    msg: "unhandled error",
    request_id: requestId,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return jsonResponse(500, {
    error: "internal_error",
    message: `Something went wrong on our side (request ${requestId}).`,
  });
}
