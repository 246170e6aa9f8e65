import { t } from "elysia";
import type { TProperties } from "@sinclair/typebox";

/** A JSON object schema that refuses unknown keys (422), as DESIGN §3 asks of every body. */
export const strictObject = <T extends TProperties>(properties: T) =>
  t.Object(properties, { additionalProperties: false });

/** A Parley id (`prefix_` + Crockford base32), the only thing a cursor can be. */
export const ID_PATTERN = "^[a-z]{2,4}_[0-9a-hjkmnp-tv-z]{10,40}$";

/** A query field naming a row by its id (a cursor, a transcript's `after`); a 422 says what an id looks like. */
export const idQueryField = () => t.String({ pattern: ID_PATTERN, maxLength: 64 });

/**
 * A whole-number query field. Elysia checks a numeric query field apart from its object, so the
 * error would not know the field's name: `title` carries it to the 422 (src/http/errors.ts).
 */
export const queryWholeNumber = (name: string, minimum: number, maximum: number) =>
  t.Numeric({ minimum, maximum, multipleOf: 1, title: name });

/**
 * Cursor paging, shared by every list route: `?limit=1..100&cursor=<last id>`. A fractional,
 * negative, huge or non-numeric limit, or a cursor that is not an id, is a 422 — never a 500
 * from SQLite's LIMIT.
 */
export const pageFields = {
  limit: t.Optional(queryWholeNumber("limit", 1, 100)),
  cursor: t.Optional(idQueryField()),
};

/** `/:id` path parameters. */
export const idParams = t.Object({ id: t.String({ maxLength: 64 }) });
