import pkg from "../../package.json" with { type: "json" };

/** What Elysia keeps of a route: its method, path and TypeBox (JSON Schema) models. */
export interface RouteInfo {
  method: string;
  path: string;
  hooks: { body?: unknown; query?: unknown; params?: unknown; response?: unknown };
}

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; required?: string[]; description?: string; [key: string]: unknown };

/** TypeBox schemas carry symbol keys and functions; a JSON round trip leaves plain JSON Schema. */
const plain = (schema: unknown): JsonSchema | undefined => (schema === undefined ? undefined : (JSON.parse(JSON.stringify(schema)) as JsonSchema));

// Which credentials each part of the API takes (Elysia keeps no trace of the auth macros).
const SECURITY_RULES: Array<{ pattern: RegExp; security: Array<Record<string, string[]>>; note: string }> = [
  { pattern: /^\/api\/v1\/(auth\/|widget\/session)/, security: [], note: "No credentials." },
  { pattern: /^\/api\/v1\/hooks\/payments\//, security: [], note: "Stripe-Signature with the tenant's payment secret." },
  { pattern: /^\/api\/v1\/hooks\/whatsapp\//, security: [], note: "Meta's verify token (GET) or X-Hub-Signature-256 (POST)." },
  { pattern: /^\/api\/v1\/(chatbot\/message|analytics\/events)/, security: [{ bearer: [] }], note: "A member's or a widget visitor's Bearer token." },
  { pattern: /^\/api\/v1\/(me|chatbot\/sessions\/)/, security: [{ bearer: [] }, { apiKey: [] }], note: "Bearer token (member or visitor) or X-API-Key." },
  { pattern: /^\/api\/v1\/webhooks\//, security: [{ apiKey: [] }], note: "X-API-Key." },
  { pattern: /^\/api\/v1\//, security: [{ apiKey: [] }, { bearer: [] }], note: "X-API-Key, or a member's Bearer token (some routes need the owner or admin role)." },
  { pattern: /./, security: [], note: "No credentials." },
];

const ERROR_RESPONSE = { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };

function parameters(schema: JsonSchema | undefined, location: "path" | "query") {
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (schema?.required ?? []).includes(name),
    schema: property,
  }));
}

function responses(route: RouteInfo) {
  const out: Record<string, unknown> = {};
  const declared = route.hooks.response;
  if (declared && typeof declared === "object" && !("type" in declared)) {
    for (const [status, schema] of Object.entries(declared as Record<string, unknown>)) {
      out[status] = { description: "OK", content: { "application/json": { schema: plain(schema) } } };
    }
  }
  if (Object.keys(out).length === 0) out["200"] = { description: "OK" };
  out.default = ERROR_RESPONSE;
  return out;
}

/**
 * The OpenAPI 3.1 document of the app's routes, from the same schema objects that validate
 * requests: a route's documentation cannot drift from what it accepts.
 */
export function buildOpenApiDocument(routes: readonly RouteInfo[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (method === "options" || route.path.startsWith("/docs") || route.path === "*") continue;
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const rule = SECURITY_RULES.find((candidate) => candidate.pattern.test(route.path)) ?? SECURITY_RULES.at(-1);
    const body = plain(route.hooks.body);
    paths[path] ??= {};
    paths[path][method] = {
      tags: [route.path.split("/")[3] ?? "service"],
      description: rule?.note,
      security: rule?.security,
      parameters: [...parameters(plain(route.hooks.params), "path"), ...parameters(plain(route.hooks.query), "query")],
      ...(body ? { requestBody: { required: true, content: { "application/json": { schema: body } } } } : {}),
      responses: responses(route),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: pkg.version,
      description: "Multi-tenant chatbot platform with signed outbound webhooks. Every error is {error, message, details?}; see the README for statuses and rate limits.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error", "message"],
          properties: { error: { type: "string" }, message: { type: "string" }, details: { type: "array", items: { type: "object" } } },
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
