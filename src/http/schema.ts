import { t } from "elysia";
import type { TProperties } from "@sinclair/typebox";

/** A JSON object schema that refuses unknown keys (422), as DESIGN §3 asks of every body. */
export const strictObject = <T extends TProperties>(properties: T) => t.Object(properties, { additionalProperties: false });

/** Cursor paging, shared by every list route: `?limit=1..100&cursor=<last id>`. */
export const pageFields = {
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100 })),
  cursor: t.Optional(t.String({ maxLength: 64 })),
};

/** `/:id` path parameters. */
export const idParams = t.Object({ id: t.String({ maxLength: 64 }) });
