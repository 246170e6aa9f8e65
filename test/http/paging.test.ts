import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";

let context: TestContext;
let headers: Record<string, string>;

// Every GET route of the app whose query takes a `limit`: a new list route is covered the day it lands.
context = buildTestApp({ rateLimits: false });
const queryOf = (route: (typeof context.app.routes)[number]) => JSON.stringify(route.hooks?.query ?? {});
const LIST_ROUTES = context.app.routes
  .filter(
    (route) => route.method === "GET" && queryOf(route).includes('"limit"') && queryOf(route).includes('"cursor"'),
  )
  .map((route) => route.path);
// Routes with a `limit` but no cursor (a ranked search): the limit is validated the same way.
const LIMIT_ONLY_ROUTES = context.app.routes
  .filter(
    (route) => route.method === "GET" && queryOf(route).includes('"limit"') && !queryOf(route).includes('"cursor"'),
  )
  .map((route) => route.path);

const KNOWN_LIST_ROUTES = [
  "/api/v1/webhooks/rules-engine/rules",
  "/api/v1/webhooks/deliveries",
  "/api/v1/webhooks/dead-letters",
  "/api/v1/sessions",
  "/api/v1/leads",
  "/api/v1/appointments",
];

/** What a list route needs besides paging (a search's words). */
const REQUIRED_QUERY: Record<string, string> = { "/api/v1/inbox/search": "q=hours&" };

const BAD_PAGING = [
  "limit=1.5",
  "limit=-1",
  "limit=0",
  "limit=101",
  "limit=1e9",
  "limit=abc",
  "limit=",
  "cursor=garbage",
  "cursor=%00",
  "cursor=ten_' OR 1=1 --",
];

beforeAll(async () => {
  const seeded = await seedTenant(context.deps, "Pager");
  headers = { "x-api-key": seeded.apiKey };
});
afterAll(() => context.close());

describe("paging input on every list route", () => {
  for (const path of LIST_ROUTES) {
    test(`${path}: fractional, negative, huge or garbage limit and cursor answer 422, valid ones 200`, async () => {
      for (const query of BAD_PAGING) {
        const response = await context.request("GET", `${path}?${REQUIRED_QUERY[path] ?? ""}${query}`, { headers });
        expect({ query, status: response.status }).toEqual({ query, status: 422 });
        expect((await response.json()).error).toBe("validation_failed");
      }
      for (const query of ["limit=1", "limit=100", "limit=20&cursor=rule_01k0000000zzzzzzzzzzzzzzzz"]) {
        const response = await context.request("GET", `${path}?${REQUIRED_QUERY[path] ?? ""}${query}`, { headers });
        expect({ query, status: response.status }).toEqual({ query, status: 200 });
      }
    });
  }

  for (const path of LIMIT_ONLY_ROUTES) {
    test(`${path}: a fractional, negative, huge or garbage limit answers 422`, async () => {
      for (const query of BAD_PAGING.filter((query) => query.startsWith("limit"))) {
        const response = await context.request("GET", `${path}?q=hours&${query}`, { headers });
        expect({ query, status: response.status }).toEqual({ query, status: 422 });
      }
      expect((await context.request("GET", `${path}?q=hours&limit=3`, { headers })).status).toBe(200);
    });
  }

  test("the routes found in the app include every known list route", () => {
    for (const path of KNOWN_LIST_ROUTES) expect(LIST_ROUTES).toContain(path);
  });
});
