import { t } from "elysia";
import type { TProperties } from "@sinclair/typebox";

/** A JSON object schema that refuses unknown keys (422), as DESIGN §3 asks of every body. */
export const strictObject = <T extends TProperties>(properties: T) => t.Object(properties, { additionalProperties: false });
