import pkg from "../../package.json" with { type: "json" };
import { ACCESS_RULES, STATIC_ROUTES, TAGS, WEBHOOK_DELIVERY_SCHEMA, webhookOperations } from "./openapi-catalog.ts";

/** What Elysia keeps of a route: its method, path, TypeBox (JSON Schema) models and `detail`. */
export interface RouteInfo {
  method: string;
  path: string;
  hooks: { body?: unknown; query?: unknown; params?: unknown; response?: unknown; detail?: unknown };
}

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  anyOf?: JsonSchema[];
  const?: unknown;
  format?: string;
  items?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  [key: string]: unknown;
};

const MATCH_ALL = "^(.*)$";

/**
 * TypeBox schemas as a reader wants them: symbol keys and functions gone (JSON round trip), a
 * union of literals as an `enum`, a numeric query field (`t.Numeric`, a string-or-number union
 * for the parser) as the number it is, and `t.Record` as `additionalProperties`.
 */
function readable(node: JsonSchema): JsonSchema {
  let out: JsonSchema = { ...node };
  const members = out.anyOf;
  if (members?.some((member) => member.format === "numeric")) {
    const { anyOf: _anyOf, ...rest } = out;
    const number = members.find((member) => member.type === "number" || member.type === "integer") ?? {};
    out = { ...rest, ...number, type: number.multipleOf === 1 ? "integer" : "number" };
    delete out.multipleOf;
  } else if (members && members.length > 0 && members.every((member) => member.const !== undefined)) {
    const { anyOf: _anyOf, ...rest } = out;
    const values = members.map((member) => member.const);
    out = { ...rest, type: typeof values[0] === "number" ? "number" : "string", enum: values };
  }
  if (out.patternProperties?.[MATCH_ALL] && Object.keys(out.patternProperties).length === 1) {
    const { patternProperties, ...rest } = out;
    out = { ...rest, additionalProperties: patternProperties[MATCH_ALL] };
  }
  for (const [key, value] of Object.entries(out)) {
    if (Array.isArray(value) && (key === "anyOf" || key === "allOf" || key === "oneOf"))
      out[key] = value.map((item: JsonSchema) => readable(item));
    else if (key === "properties" && value && typeof value === "object")
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, readable(schema as JsonSchema)]),
      );
    else if ((key === "items" || key === "additionalProperties" || key === "not") && value && typeof value === "object")
      out[key] = readable(value as JsonSchema);
  }
  return out;
}

const plain = (schema: unknown): JsonSchema | undefined =>
  schema === undefined ? undefined : readable(JSON.parse(JSON.stringify(schema)) as JsonSchema);

const STATUS_TEXT: Record<string, string> = { "200": "OK", "201": "Created", "202": "Accepted", "204": "No content" };

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function parameters(schema: JsonSchema | undefined, location: "path" | "query") {
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (schema?.required ?? []).includes(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

function responses(route: RouteInfo, secured: boolean) {
  const out: Record<string, unknown> = {};
  const declared = route.hooks.response;
  if (declared && typeof declared === "object" && !("type" in declared) && !("anyOf" in declared)) {
    for (const [status, schema] of Object.entries(declared as Record<string, unknown>)) {
      const json = plain(schema);
      const type = json?.type === "string" ? "text/plain" : "application/json";
      out[status] = { description: STATUS_TEXT[status] ?? "OK", content: { [type]: { schema: json } } };
    }
  }
  if (secured) out["401"] = { $ref: "#/components/responses/Unauthorized" };
  if (route.path.includes(":")) out["404"] = { $ref: "#/components/responses/NotFound" };
  if (route.hooks.body || route.hooks.query || route.hooks.params)
    out["422"] = { $ref: "#/components/responses/ValidationFailed" };
  if (route.path.startsWith("/api/v1/")) out["429"] = { $ref: "#/components/responses/RateLimited" };
  out.default = errorResponse("Any other error, in the same shape.");
  return out;
}

function staticOperation(route: RouteInfo) {
  const known = STATIC_ROUTES[`${route.method} ${route.path}`];
  const status = known?.status ?? "200";
  return {
    summary: known?.summary ?? `${route.method} ${route.path}`,
    description: known?.description ?? "",
    responses: {
      [status]: {
        description: STATUS_TEXT[status] ?? "OK",
        ...(status === "204"
          ? {}
          : { content: { [known?.type ?? "text/plain"]: { schema: known?.schema ?? { type: "string" } } } }),
      },
    },
  };
}

function apiOperation(route: RouteInfo) {
  const rule = ACCESS_RULES.find((candidate) => candidate.pattern.test(route.path)) ?? ACCESS_RULES.at(-1);
  const detail = (route.hooks.detail ?? {}) as { summary?: string; description?: string };
  const body = plain(route.hooks.body);
  const secured = (rule?.security.length ?? 0) > 0;
  return {
    summary: detail.summary ?? `${route.method} ${route.path}`,
    description: [detail.description, `**Credentials:** ${rule?.note ?? "none."}`].filter(Boolean).join("\n\n"),
    security: rule?.security ?? [],
    parameters: [...parameters(plain(route.hooks.params), "path"), ...parameters(plain(route.hooks.query), "query")],
    ...(body ? { requestBody: { required: true, content: { "application/json": { schema: body } } } } : {}),
    responses: responses(route, secured),
  };
}

/**
 * The OpenAPI 3.1 document of the app's routes, from the same schema objects that validate
 * requests and responses: a route's documentation cannot drift from what it accepts or answers.
 */
export function buildOpenApiDocument(routes: readonly RouteInfo[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (method === "options" || route.path.startsWith("/docs") || route.path === "*") continue;
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const tag = TAGS.find((candidate) => candidate.pattern.test(route.path))?.name ?? "Service";
    const operation = route.path.startsWith("/api/v1/") ? apiOperation(route) : staticOperation(route);
    paths[path] ??= {};
    paths[path][method] = { tags: [tag], operationId: operationId(method, route.path), ...operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: pkg.version,
      description:
        "Multi-tenant chatbot platform with signed outbound webhooks. JSON in and out; every error is `{error, message, details?}`. Send X-API-Key (the tenant's API key) or `Authorization: Bearer <token>` from POST /api/v1/auth/token. Limited routes answer RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers, and 429 with Retry-After.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // "/" first: the viewer's "Try it" then calls the origin the page came from.
    servers: [
      { url: "/", description: "This server" },
      ...(serverUrl ? [{ url: serverUrl, description: "PARLEY_PUBLIC_URL" }] : []),
    ],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A member's access token (POST /api/v1/auth/token) or a widget visitor token.",
        },
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "The tenant's API key (parley apikey create).",
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error", "message"],
          properties: {
            error: { type: "string", description: "A stable snake_case code.", examples: ["validation_failed"] },
            message: { type: "string", examples: ["name: is required"] },
            details: { description: "For validation_failed: one {field, message} per field." },
          },
        },
        WebhookDelivery: WEBHOOK_DELIVERY_SCHEMA,
      },
      responses: {
        Unauthorized: errorResponse("Missing or invalid credentials (401), or a role that may not do this (403)."),
        NotFound: errorResponse("No such object for this tenant (another tenant's id is 404 too)."),
        ValidationFailed: errorResponse("The body, query or path broke its schema: one detail per field."),
        RateLimited: {
          ...errorResponse("Too many requests in the route's rate group."),
          headers: { "Retry-After": { description: "Seconds until a slot frees.", schema: { type: "integer" } } },
        },
      },
    },
  };
}

/** `POST /api/v1/webhooks/rules-engine/rules/:id` → `post_webhooks_rules_engine_rules_id`. */
const operationId = (method: string, path: string): string =>
  `${method}_${
    path
      .replace(/^\/api\/v1/, "")
      .replace(/[^a-zA-Z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "root"
  }`;

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
