import type { TestContext } from "../helpers.ts";

// What an interactive reference such as /docs's viewer puts in "Test Request": each field's
// first example (else its default, its first enum value, its minimum); required fields and
// the optional ones that carry an example.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  format?: string;
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  schema?: JsonSchema;
}

export interface DocOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export type OpenApiDocument = { paths: Record<string, Record<string, DocOperation>> };

export function exampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return exampleOf(branches.find((branch) => branch.type !== "null") ?? branches[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== "null") : schema.type;
  switch (type) {
    case "object":
      // Required fields, and the optional ones the schema gives an example for.
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name, property]) => schema.required?.includes(name) || property.examples?.length)
          .map(([name, property]) => [name, exampleOf(property)]),
      );
    case "array":
      return [exampleOf(schema.items)];
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "string":
      return schema.format === "date-time"
        ? "2026-01-15T09:00:00.000Z"
        : "x".repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return null;
  }
}

export async function openApiDocument(context: TestContext): Promise<OpenApiDocument> {
  return (await (await context.request("GET", "/docs/json")).json()) as OpenApiDocument;
}

/** The request the reference's "Test Request" would send for a route: its path, query and body from the examples. */
export function exampleRequest(
  document: OpenApiDocument,
  method: string,
  routePath: string,
): { path: string; body?: unknown } {
  const operation = document.paths[routePath.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
  const parameters = operation?.parameters ?? [];
  const path = routePath.replace(/:(\w+)/g, (_, name: string) => {
    const example = exampleOf(
      parameters.find((parameter) => parameter.in === "path" && parameter.name === name)?.schema,
    );
    return encodeURIComponent(
      typeof example === "string" && example !== "x" ? example : `${name}_01jz4k8m2q9wz7xr3t5v6b8c0d`,
    );
  });
  const search = new URLSearchParams();
  for (const parameter of parameters)
    if (parameter.in === "query" && parameter.required) search.set(parameter.name, String(exampleOf(parameter.schema)));
  const json = operation?.requestBody?.content["application/json"]?.schema;
  return { path: search.size ? `${path}?${search}` : path, body: json ? exampleOf(json) : undefined };
}

/**
 * Routes whose example makes the server fetch a page on the internet: tests fetch only from
 * 127.0.0.1, so the example walks leave them out (test/knowledge/sources-api.test.ts covers
 * this one's roles and bodies against a local server).
 */
export const FETCHING_ROUTES: ReadonlySet<string> = new Set(["POST /api/v1/knowledge/sources"]);
