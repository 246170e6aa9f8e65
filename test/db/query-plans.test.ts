import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { SESSION_LIST_FILTERS, sessionListSql } from "../../src/db/sqlite/chat.ts";
import {
  appointmentListSql as sharedAppointmentListSql,
  leadListSql as sharedLeadListSql,
} from "../../src/db/sql/chat.ts";
import {
  DEAD_LETTER_LIST_FILTERS,
  deadLetterListSql as sharedDeadLetterListSql,
} from "../../src/db/sql/dead-letters.ts";
import { DELIVERY_LIST_FILTERS, deliveryListSql as sharedDeliveryListSql } from "../../src/db/sql/webhooks.ts";
import { SQLITE, sqliteText } from "../../src/db/sqlite/statements.ts";
import { documentListSql as sharedDocumentListSql } from "../../src/db/sql/knowledge.ts";
import { filterCombinations } from "../../src/db/sqlite/list-variants.ts";

// @sqlite-only: reads SQLite's query plans (EXPLAIN QUERY PLAN) of the statements the SQLite store prepares

const deliveryListSql = (given: Record<(typeof DELIVERY_LIST_FILTERS)[number], boolean>) =>
  sqliteText(sharedDeliveryListSql(SQLITE, given));
const leadListSql = (given: { before: boolean }) => sqliteText(sharedLeadListSql(SQLITE, given));
const appointmentListSql = (given: { before: boolean }) => sqliteText(sharedAppointmentListSql(SQLITE, given));
const documentListSql = (given: { before: boolean }) => sqliteText(sharedDocumentListSql(SQLITE, given));
const deadLetterListSql = (given: Record<(typeof DEAD_LETTER_LIST_FILTERS)[number], boolean>) =>
  sqliteText(sharedDeadLetterListSql(SQLITE, given));

// Every statement the SQLite store prepares, recorded as it prepares them (all list variants
// are prepared up front), so this test reads the SQL the store really runs and cannot drift.
const handle = openDatabase(":memory:");
applyMigrations(handle.sqlite, 1);
const statements: string[] = [];
const prepare = handle.sqlite.prepare.bind(handle.sqlite);
handle.sqlite.prepare = ((sql: string) => {
  statements.push(sql);
  return prepare(sql);
}) as typeof handle.sqlite.prepare;
void handle.store;
handle.sqlite.prepare = prepare;
afterAll(() => handle.close());

const TENANT_TABLES = [
  "deliveries",
  "events",
  "chat_sessions",
  "chat_messages",
  "leads",
  "appointments",
  "analytics_events",
  "dead_letters",
  "payment_events",
  "whatsapp_messages",
  "knowledge_documents",
  "knowledge_chunks",
  "delivery_attempts",
  "chatbot_tests",
  "chatbot_test_runs",
  "unanswered_questions",
  "handoffs",
  "session_ratings",
];

const planOf = (sql: string): string[] =>
  prepare<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => row.detail);
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim();

/** The plan's lines that read a tenant table: `SCAN t …` or `SEARCH t … (constraint)`, with the alias resolved. */
function tenantReads(sql: string): Array<{ table: string; line: string; constraint: string | null }> {
  const aliases = new Map<string, string>();
  for (const match of oneLine(sql).matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const [, table, alias] = match;
    if (!table) continue;
    aliases.set(table, table);
    if (alias && !/^(WHERE|JOIN|LEFT|ON|ORDER|GROUP|LIMIT|SET|INNER)$/i.test(alias)) aliases.set(alias, table);
  }
  return planOf(sql).flatMap((line) => {
    const match = /^(?:SCAN|SEARCH) (\w+)/.exec(line);
    const table = match?.[1] ? aliases.get(match[1]) : undefined;
    if (!table || !TENANT_TABLES.includes(table)) return [];
    return [{ table, line, constraint: line.startsWith("SEARCH") ? (/\((.*)\)/.exec(line)?.[1] ?? null) : null }];
  });
}

// Statements allowed to read all of a table, each for a reason that is not a tenant's list.
const WHOLE_TABLE_READS: Array<{ sql: RegExp; why: string }> = [
  {
    sql: /^SELECT \(SELECT count\(\*\) FROM deliveries AS d WHERE d\.status = 'pending' AND d\.next_attempt_at <= \?1\) AS due, \(SELECT count\(\*\) FROM deliveries WHERE status = 'pending'\) AS pending, .* \(SELECT count\(\*\) FROM dead_letters\) AS "deadLetters"$/,
    why: "metrics: the whole queue's depth (walks of the partial due index, pending rows only) and the instance's dead-letter count",
  },
];
// Statements allowed to read every row of one tenant: they need all of them, not a page.
const WHOLE_TENANT_READS: Array<{ sql: RegExp; why: string }> = [
  {
    sql: /FROM knowledge_chunks WHERE tenant_id = \?\d*$/,
    why: "the search index's (count, max id) signature, one covering-index range",
  },
  {
    sql: /FROM knowledge_chunks c JOIN knowledge_documents d .* WHERE c\.tenant_id = \?\d* ORDER BY c\.id$/,
    why: "building the in-process search index reads every chunk",
  },
  {
    sql: /\(SELECT count\(\*\) FROM knowledge_documents d WHERE d\.tenant_id = t\.id\)/,
    why: "the plan's document and byte limits sum the tenant's documents",
  },
  {
    sql: /^SELECT s\.id AS "sessionId".*json_each/,
    why: "a page's newest messages: the listed session ids, one lookup each",
  },
  { sql: /^SELECT d\.id, d\.url, .*json_each/, why: "the listed deliveries' details, by id" },
  {
    sql: /FROM chatbot_tests WHERE tenant_id = \?1( ORDER BY id)?$/,
    why: "a run replays every test case; the plan caps them (2,000 at most)",
  },
  {
    sql: /FROM chatbot_test_runs WHERE tenant_id = \?1 (AND id NOT IN|ORDER BY id DESC LIMIT)/,
    why: "the kept runs: 20, one more just before the prune",
  },
];

describe("query plans", () => {
  test("the store prepared its statements, every list variant among them", () => {
    expect(statements.length).toBeGreaterThan(100);
    const variants = [
      ...filterCombinations(DELIVERY_LIST_FILTERS).map(deliveryListSql),
      ...filterCombinations(DEAD_LETTER_LIST_FILTERS).map(deadLetterListSql),
      ...filterCombinations(SESSION_LIST_FILTERS).map(sessionListSql),
      ...filterCombinations(["before"] as const).flatMap((given) => [
        leadListSql(given),
        appointmentListSql(given),
        documentListSql(given),
      ]),
    ];
    expect(variants.length).toBe(16 + 8 + 4 + 6);
    for (const sql of variants) expect(statements).toContain(sql);
  });

  test("no statement scans a tenant table (SCAN instead of SEARCH … USING INDEX)", () => {
    const scans = statements.flatMap((sql) => {
      if (WHOLE_TABLE_READS.some((allowed) => allowed.sql.test(oneLine(sql)))) return [];
      // The administrator's dead-letter list over every tenant walks the primary key from the newest id to the page's end.
      if (
        filterCombinations(DEAD_LETTER_LIST_FILTERS).some((given) => !given.tenant && deadLetterListSql(given) === sql)
      )
        return [];
      return tenantReads(sql)
        .filter((read) => read.line.startsWith("SCAN"))
        .map((read) => `${read.line}  ←  ${oneLine(sql).slice(0, 160)}`);
    });
    expect(scans).toEqual([]);
  });

  const lists: Array<{
    name: string;
    table: string;
    variants: Array<{ given: Record<string, boolean>; sql: string }>;
    columns: Record<string, string>;
  }> = [
    {
      name: "deliveries",
      table: "deliveries",
      variants: filterCombinations(DELIVERY_LIST_FILTERS).map((given) => ({ given, sql: deliveryListSql(given) })),
      columns: { status: "status", event: "event", ruleId: "rule_id" },
    },
    {
      name: "dead letters",
      table: "dead_letters",
      variants: filterCombinations(DEAD_LETTER_LIST_FILTERS)
        .filter((given) => given.tenant)
        .map((given) => ({ given, sql: deadLetterListSql(given) })),
      columns: { event: "event" },
    },
    {
      name: "sessions",
      table: "chat_sessions",
      variants: filterCombinations(SESSION_LIST_FILTERS).map((given) => ({ given, sql: sessionListSql(given) })),
      columns: { status: "status" },
    },
    {
      name: "leads",
      table: "leads",
      variants: filterCombinations(["before"] as const).map((given) => ({ given, sql: leadListSql(given) })),
      columns: {},
    },
    {
      name: "appointments",
      table: "appointments",
      variants: filterCombinations(["before"] as const).map((given) => ({ given, sql: appointmentListSql(given) })),
      columns: {},
    },
    {
      name: "knowledge documents",
      table: "knowledge_documents",
      variants: filterCombinations(["before"] as const).map((given) => ({ given, sql: documentListSql(given) })),
      columns: {},
    },
  ];
  test("no statement walks all of a tenant's rows (an index search on tenant_id alone) unless it needs every row", () => {
    // A list's unfiltered page is such a search too, but in id order and stopping at the page's
    // end: the list tests below check each variant's plan for exactly that.
    const listed = new Set(lists.flatMap((list) => list.variants.map((variant) => variant.sql)));
    const walks = statements.flatMap((sql) => {
      if (listed.has(sql) || WHOLE_TENANT_READS.some((allowed) => allowed.sql.test(oneLine(sql)))) return [];
      return tenantReads(sql)
        .filter((read) => read.constraint === "tenant_id=?")
        .map((read) => `${read.line}  ←  ${oneLine(sql).slice(0, 160)}`);
    });
    expect(walks).toEqual([]);
  });

  for (const list of lists) {
    test(`every filter combination of the ${list.name} list is one index range in id order`, () => {
      for (const { given, sql } of list.variants) {
        const plan = planOf(sql);
        const reads = tenantReads(sql);
        const label = JSON.stringify(given);
        expect({ label, reads: reads.length }).toEqual({ label, reads: 1 });
        const constraint = reads[0]?.constraint ?? "";
        expect({ label, line: reads[0]?.line, tenant: constraint.includes("tenant_id=?") }).toEqual({
          label,
          line: reads[0]?.line,
          tenant: true,
        });
        const filters = Object.entries(list.columns).filter(([key]) => given[key]);
        if (filters.length > 0)
          expect({
            label,
            constraint,
            filtered: filters.some(([, column]) => constraint.includes(`${column}=?`)),
          }).toEqual({ label, constraint, filtered: true });
        if (given.before && filters.length <= 1)
          expect({ label, constraint, cursor: constraint.includes("id<?") }).toEqual({
            label,
            constraint,
            cursor: true,
          });
        expect({ label, sorts: plan.filter((line) => line.includes("TEMP B-TREE FOR ORDER BY")) }).toEqual({
          label,
          sorts: [],
        });
      }
    });
  }

  test("the open unanswered questions are one index range of the tenant's open rows, newest first, without a sort", () => {
    const [sql] = statements.filter((text) =>
      /FROM unanswered_questions WHERE tenant_id = \?1 AND resolved_at IS NULL/.test(text),
    );
    expect(sql).toBeDefined();
    expect(tenantReads(sql ?? "").map((read) => read.constraint)).toEqual(["tenant_id=? AND resolved_at=?"]);
    expect(planOf(sql ?? "").filter((line) => line.includes("TEMP B-TREE"))).toEqual([]);
  });

  test("the analytics summary and the CSAT count a date range of an index, not the tenant's rows", () => {
    const summaries = statements.filter((sql) => /GROUP BY day/.test(sql) && !/FROM deliveries/.test(sql));
    expect(summaries.length).toBe(5);
    for (const sql of summaries) {
      const [read] = tenantReads(sql);
      expect(read?.constraint ?? "").toMatch(/tenant_id=\? AND (created_at|captured_at|day)>\? AND \1<\?/);
    }
  });

  test("the expected reply time reads the tenant's newest hand-offs of an index range, without a sort", () => {
    const [sql] = statements.filter((text) => /FROM handoffs\s+WHERE tenant_id = \?1 AND handoff_at >= \?2/.test(text));
    expect(sql).toBeDefined();
    expect(tenantReads(sql ?? "").map((read) => read.constraint)).toEqual(["tenant_id=? AND handoff_at>?"]);
    expect(planOf(sql ?? "").filter((line) => line.includes("TEMP B-TREE"))).toEqual([]);
  });

  test("the inbox page's hand-offs are looked up by primary key, one per listed session", () => {
    // Joined into the inbox page's detail statement, one primary-key seek per listed session.
    const [sql] = statements.filter((text) => /LEFT JOIN handoffs AS h ON h\.session_id = s\.id/.test(text));
    expect(sql).toBeDefined();
    expect(
      tenantReads(sql ?? "")
        .filter((read) => read.table === "handoffs")
        .map((read) => read.line),
    ).toEqual([
      expect.stringMatching(/^SEARCH h USING INDEX sqlite_autoindex_handoffs_1 \(session_id=\?\)( LEFT-JOIN)?$/),
    ]);
  });

  test("purges find their rows by time through an index", () => {
    const purges = statements.filter((sql) =>
      /^\s*DELETE FROM (payment_events|whatsapp_messages|dead_letters|events|deliveries|analytics_events|chat_sessions) WHERE/.test(
        sql,
      ),
    );
    expect(purges.length).toBeGreaterThanOrEqual(7);
    for (const sql of purges) {
      const reads = tenantReads(sql);
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads)
        expect({ sql: oneLine(sql).slice(0, 80), line: read.line }).toEqual({
          sql: oneLine(sql).slice(0, 80),
          line: expect.stringMatching(/^SEARCH .* USING ((COVERING )?INDEX|INTEGER PRIMARY KEY) /),
        });
    }
  });

  test("the scheduler's claims read due rows in the due index's order: no sort of the rows due in one millisecond", () => {
    const claims = statements.filter(
      (sql) =>
        /FROM deliveries d[\s\S]*WHERE d\.status = 'pending' AND d\.next_attempt_at <= \?1/.test(sql) ||
        /SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= \?1 ORDER BY/.test(sql),
    );
    expect(claims.length).toBe(4);
    for (const sql of claims) {
      const plan = planOf(sql);
      expect(plan.some((line) => /deliveries_due_idx/.test(line))).toBe(true);
      expect({ sql: oneLine(sql).slice(0, 60), temp: plan.filter((line) => /TEMP B-TREE/.test(line)) }).toEqual({
        sql: oneLine(sql).slice(0, 60),
        temp: [],
      });
    }
  });
});
