import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import type { AppError } from "../src/lib/app-error.ts";
import type { NewWebhookRule } from "../src/db/store.ts";
import { loadConfig, type Config } from "../src/config.ts";
import { openDatabase, type DatabaseHandle } from "../src/db/client.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import type { Deps } from "../src/deps.ts";
import { createApp } from "../src/http/app.ts";
import { createAppDeps, type AppDeps } from "../src/http/deps.ts";
import { createFakeClock, type FakeClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createSignal } from "../src/lib/signal.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { createUser } from "../src/auth/create-user.ts";
import { createApiKey } from "../src/auth/api-keys.ts";
import { createArgon2idHasher } from "../src/auth/password.ts";
import type { CliDeps } from "../src/cli/context.ts";
import { Database, type Statement } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deferredStore } from "./pg/deferred-store.ts";
import { openTestPgStore, testPostgresUrl } from "./pg/test-store.ts";
import { createDeliveryHandoff } from "../src/webhooks/delivery-handoff.ts";

/** argon2id at the smallest cost: real hashes, no 150 ms of CPU per fixture user or login. */
export const CHEAP_TEST_PASSWORDS = createArgon2idHasher({ memoryCost: 8, timeCost: 1 });

export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";

/** What tests look at directly (row counts, a held lock): the SQLite connection under the store. */
export interface TestDatabase {
  readonly sqlite: DatabaseHandle["sqlite"];
  readonly db: DatabaseHandle["db"];
}

export type TestDeps = Deps & TestDatabase & { clock: FakeClock };

export interface TestContext {
  deps: AppDeps & TestDatabase;
  clock: FakeClock;
  app: ReturnType<typeof createApp>;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<Response>;
  close(): void;
}

/**
 * Deps over an in-memory database with migrations applied and a fake clock. With
 * `PARLEY_TEST_DB=postgres://…` (test/run.ts sets it for the PostgreSQL run) the store is a
 * fresh migrated PostgreSQL schema instead; `sqlite` and `db` then refuse (test/run.ts leaves
 * the files that read SQLite directly out of that run).
 */
export function buildDeps(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
  extra: Pick<Deps, "resolveHost"> = {},
  dbPath = ":memory:",
): TestDeps {
  const clock = createFakeClock();
  const config = { ...loadConfig({ PARLEY_JWT_SECRET: TEST_JWT_SECRET, PARLEY_DB: dbPath, ...env }), ...overrides };
  const base = {
    config,
    clock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: createSignal(),
    liveEventsWritten: createSignal(),
    deliveryHandoff: createDeliveryHandoff(),
    passwords: CHEAP_TEST_PASSWORDS,
    ...extra,
  };
  const postgres = testPostgresUrl();
  if (postgres && dbPath === ":memory:") {
    const opening = openTestPgStore(postgres, clock.now());
    opening.catch(() => undefined);
    const refuse = (): never => {
      throw new Error("this test reads SQLite directly (deps.sqlite / deps.db): it runs over SQLite only");
    };
    return Object.defineProperties(
      { ...base, store: deferredStore(opening.then((opened) => opened.store)) } as TestDeps,
      {
        sqlite: { get: refuse },
        db: { get: refuse },
        [CLOSE]: {
          enumerable: true,
          value: () => void opening.then((opened) => opened.close()).catch(() => undefined),
        },
        [RAW]: { enumerable: true, value: async (): Promise<TestSql> => pgTestSql((await opening).sql) },
      },
    );
  }
  const handle = openDatabase(dbPath);
  applyMigrations(handle.sqlite, clock.now());
  return {
    store: handle.store,
    db: handle.db,
    sqlite: handle.sqlite,
    ...base,
    [CLOSE]: () => handle.close(),
    [RAW]: async () => sqliteTestSql(handle.sqlite),
  } as TestDeps;
}

const CLOSE = Symbol("close");
const RAW = Symbol("raw sql");

type SqlValue = string | number | boolean | null;

/**
 * Raw SQL on the database under test deps, whichever store it is — for tests that look at rows
 * directly (counts, a column the API does not show) or plant a row. Write SQL both engines
 * read: `?` parameters, `CAST(count(*) AS INTEGER)` (PostgreSQL's count is a bigint), `true`
 * / `false` for booleans.
 */
export interface TestSql {
  all<T>(text: string, ...params: SqlValue[]): Promise<T[]>;
  get<T>(text: string, ...params: SqlValue[]): Promise<T | null>;
  run(text: string, ...params: SqlValue[]): Promise<void>;
}

export function testSql(deps: TestDeps | (AppDeps & TestDatabase)): Promise<TestSql> {
  const raw = (deps as unknown as Record<symbol, (() => Promise<TestSql>) | undefined>)[RAW];
  if (!raw) throw new Error("testSql needs deps made by buildDeps or buildTestApp");
  return raw();
}

function sqliteTestSql(sqlite: DatabaseHandle["sqlite"]): TestSql {
  return {
    all: async <T>(text: string, ...params: SqlValue[]) => sqlite.prepare<T, SqlValue[]>(text).all(...params),
    get: async <T>(text: string, ...params: SqlValue[]) => sqlite.prepare<T, SqlValue[]>(text).get(...params) ?? null,
    run: async (text, ...params) => void sqlite.prepare(text).run(...params),
  };
}

function pgTestSql(sql: import("bun").SQL): TestSql {
  let n = 0;
  const numbered = (text: string) => ((n = 0), text.replace(/\?/g, () => `$${++n}`));
  return {
    all: async <T>(text: string, ...params: SqlValue[]) => [...(await sql.unsafe<T[]>(numbered(text), params))],
    get: async <T>(text: string, ...params: SqlValue[]) => (await sql.unsafe<T[]>(numbered(text), params))[0] ?? null,
    run: async (text, ...params) => void (await sql.unsafe(numbered(text), params)),
  };
}

/** Closes the database under deps made by buildDeps (SQLite file or PostgreSQL schema). */
export function closeDeps(deps: TestDeps | (AppDeps & TestDatabase)): void {
  (deps as unknown as Record<symbol, (() => void) | undefined>)[CLOSE]?.();
}

/**
 * Deps for `startServer` (src/cli/serve.ts): over PostgreSQL (PARLEY_TEST_DB) a fresh schema;
 * over SQLite a file in a temp dir (the server lock needs one). `dispose` removes the dir;
 * the server's stop closes the database.
 */
export function buildServerDeps(overrides: Partial<Config> = {}): { deps: CliDeps & TestDeps; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "parley-server-"));
  const base = buildDeps(
    { port: 0, host: "127.0.0.1", ...overrides },
    {},
    {},
    testPostgresUrl() ? ":memory:" : join(dir, "parley.db"),
  );
  const opened: CliDeps["opened"] = {
    store: base.store,
    kind: base.store.kind,
    deliveriesEnqueued: base.deliveriesEnqueued,
    liveEventsWritten: base.liveEventsWritten ?? createSignal(),
    migrate: async () => ({ applied: [], alreadyApplied: 0 }),
    close: async () => closeDeps(base),
  };
  return { deps: Object.assign(base, { opened }), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** parley_webhook_sends_total by thread in a /metrics text (process-wide counters: compare before and after). */
export function webhookSendsIn(metricsText: string): { main: number; send: number } {
  const value = (thread: string) =>
    Number(
      new RegExp(`^parley_webhook_sends_total\\{thread="${thread}"\\} (\\d+)$`, "m").exec(metricsText)?.[1] ?? "NaN",
    );
  return { main: value("main"), send: value("send") };
}

/**
 * The whole HTTP app over an in-memory database, or the SQLite file `dbPath` (over PostgreSQL
 * always the test database); requests go through `app.handle`, no socket.
 */
export function buildTestApp(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
  extra: Pick<Deps, "resolveHost"> = {},
  dbPath = ":memory:",
): TestContext {
  const base = buildDeps(overrides, env, extra, testPostgresUrl() ? ":memory:" : dbPath);
  const deps = createAppDeps(base);
  const app = createApp(deps);
  return {
    deps,
    clock: base.clock,
    app,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      return app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    },
    close: () => closeDeps(base),
  };
}

export const TEST_PASSWORD = "correct horse battery";

/** A tenant with an owner (TEST_PASSWORD) and an API key. */
export async function seedTenant(
  deps: Deps,
  name = "Acme",
  email = `owner@${name.toLowerCase().replaceAll(/\W/g, "")}.test`,
) {
  const tenant = await createTenant(deps, { name });
  const user = await createUser(deps, { email, tenantId: tenant.id, role: "owner", password: TEST_PASSWORD });
  const apiKey = await createApiKey(deps, { tenantId: tenant.id, name: "test" });
  return { tenant, user, email, apiKey: apiKey.key, apiKeyId: apiKey.id };
}

export async function login(context: TestContext, email: string, password = TEST_PASSWORD) {
  const response = await context.request("POST", "/api/v1/auth/token", { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    refresh_expires_in: number;
    token_type: string;
  };
}

/** The error a promise rejects with; fails the test when it resolves instead. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

/** A webhook rule row as the store writes it, for tests that go through `tx.webhookRules`. */
export const webhookRuleRow = (tenantId: string, id: string): NewWebhookRule => ({
  id,
  tenantId,
  name: id,
  event: "lead.created",
  url: `https://hooks.example/${id}`,
  secret: "s".repeat(20),
  minConfidence: null,
  active: true,
  createdAt: 1,
  updatedAt: 1,
});

/** The transaction-control statements the SQLite group commit prepares once (src/db/sqlite/group-commit.ts). */
const TRANSACTION_CONTROL = new Set([
  "BEGIN IMMEDIATE",
  "SAVEPOINT parley_tx",
  "RELEASE parley_tx",
  "ROLLBACK TO parley_tx",
  "COMMIT",
  "ROLLBACK",
]);

/**
 * Records every run of a transaction-control statement (BEGIN IMMEDIATE, SAVEPOINT, COMMIT…),
 * prepared from now on or run as plain SQL, in order, and runs `failOn` as a throw instead. The group commit
 * prepares them when the store is built: watch before building deps; `stop()` in an afterEach.
 */
export function watchTransactionControl() {
  const watch = {
    executed: [] as string[],
    failOn: null as { statement: string; error: Error } | null,
    stop: () => {},
  };
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string, ...rest: unknown[]) {
    const statement = (prepare as (this: Database, sql: string, ...rest: unknown[]) => Statement).call(
      this,
      sql,
      ...rest,
    );
    if (!TRANSACTION_CONTROL.has(sql)) return statement;
    const run = statement.run.bind(statement);
    statement.run = ((...args: Parameters<Statement["run"]>) => {
      watch.executed.push(sql);
      if (watch.failOn && watch.failOn.statement === sql) throw watch.failOn.error;
      return run(...args);
    }) as Statement["run"];
    return statement;
  } as typeof Database.prototype.prepare;
  // Run as plain SQL too (exec, and its alias run): a probe of the lock would show.
  const exec = Database.prototype.exec;
  const run = Database.prototype.run;
  const watched = (original: typeof exec) =>
    function (this: Database, sql: string, ...rest: unknown[]) {
      if (TRANSACTION_CONTROL.has(sql)) {
        watch.executed.push(sql);
        if (watch.failOn && watch.failOn.statement === sql) throw watch.failOn.error;
      }
      return (original as (this: Database, sql: string, ...rest: unknown[]) => ReturnType<typeof exec>).call(
        this,
        sql,
        ...rest,
      );
    } as typeof exec;
  Database.prototype.exec = watched(exec);
  Database.prototype.run = watched(run);
  watch.stop = () => {
    Database.prototype.prepare = prepare;
    Database.prototype.exec = exec;
    Database.prototype.run = run;
  };
  return watch;
}
