import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { toErrorResponse } from "../../src/http/errors.ts";
import type { Logger } from "../../src/lib/log.ts";

/** A bare app wired like src/http/app.ts (normalize: false, the one error mapping), with one route per case. */
function appWith(logged: unknown[]) {
  const log: Logger = { info: () => {}, error: (entry) => logged.push(entry) };
  return new Elysia({ normalize: false })
    .onError(({ code, error }) => toErrorResponse(code, error, "req-1", log))
    .post("/things", ({ body }) => body, {
      body: t.Object(
        {
          name: t.String({ minLength: 1, maxLength: 10 }),
          kind: t.Union([t.Literal("a"), t.Literal("b")]),
          count: t.Optional(t.Integer({ minimum: 1, maximum: 5 })),
          tags: t.Optional(t.Array(t.String(), { maxItems: 2 })),
        },
        { additionalProperties: false },
      ),
    })
    .get("/broken", () => ({ id: 42, secret: "leak" }) as unknown as { id: string }, {
      response: { 200: t.Object({ id: t.String() }) },
    });
}

const post = (app: ReturnType<typeof appWith>, body: unknown) =>
  app.handle(
    new Request("http://localhost/things", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

describe("validation details", () => {
  test("one detail per field, in words a client can act on", async () => {
    const response = await post(appWith([]), { name: "", kind: "c", count: 9, tags: ["x", "y", "z"], extra: true });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error).toBe("validation_failed");
    expect(body.details).toEqual([
      { field: "extra", message: "is not a known field" },
      { field: "name", message: "must be 1 to 10 characters" },
      { field: "kind", message: "must be one of: a, b" },
      { field: "count", message: "must be a whole number from 1 to 5" },
      { field: "tags", message: "must have at most 2 items" },
    ]);
    expect(body.message).toBe("extra: is not a known field");
  });

  test("a missing field is reported once, as required, not also as the wrong type", async () => {
    const body = await (await post(appWith([]), { kind: "a" })).json();
    expect(body.details).toEqual([{ field: "name", message: "is required" }]);
  });

  test("a body that is not an object names the body", async () => {
    const body = await (await post(appWith([]), "hello")).json();
    expect(body.details).toEqual([{ field: "(body)", message: "must be a JSON object" }]);
  });
});

describe("response schemas", () => {
  test("an answer that breaks its route's response schema is a logged 500, not the client's 422, and leaks nothing", async () => {
    const logged: unknown[] = [];
    const response = await appWith(logged).handle(new Request("http://localhost/broken"));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: "internal_error",
      message: "Something went wrong on our side (request req-1).",
    });
    expect(text).not.toContain("leak");
    expect(logged).toHaveLength(1);
  });
});

describe("storage trouble", () => {
  const answer = async (error: unknown) => {
    const response = toErrorResponse("UNKNOWN", error, "req-1", { info: () => {}, error: () => {} });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { error: string; message: string },
    };
  };

  test("a PostgreSQL server out of reach is 503 database_unavailable, not busy with another process", async () => {
    for (const error of [
      Object.assign(new Error("Connection refused"), { code: "ERR_POSTGRES_CONNECTION_REFUSED" }),
      new Error("query failed", {
        cause: Object.assign(new Error("closed"), { code: "ERR_POSTGRES_CONNECTION_CLOSED" }),
      }),
      Object.assign(new Error("the database system is starting up"), {
        code: "ERR_POSTGRES_SERVER_ERROR",
        errno: "57P03",
      }),
    ]) {
      const { status, retryAfter, body } = await answer(error);
      expect(status).toBe(503);
      expect(retryAfter).toBe("1");
      expect(body.error).toBe("database_unavailable");
      expect(body.message).not.toContain("another process");
    }
  });

  test("a lock timeout is still 503 busy", async () => {
    const { status, body } = await answer(
      Object.assign(new Error("lock timeout"), { code: "ERR_POSTGRES_SERVER_ERROR", errno: "55P03" }),
    );
    expect(status).toBe(503);
    expect(body.error).toBe("busy");
  });
});
