import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import { CLAIM_DUE, CLAIM_PLAN_SETTINGS, LEASE_IDS, SELECT_CANDIDATES } from "../../src/db/postgres/delivery-queue.ts";
import { RECORD_BATCH } from "../../src/db/postgres/delivery-queue-record.ts";
import type { FairSharePicker } from "../../src/db/store.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

// The PostgreSQL claim's plans on a queue that has just filled and was never analysed (the
// first minutes after a burst, before autovacuum gets to it): the statements the queue really
// runs, with the settings its claim transaction really sets, must walk the due index and stop
// at the window — no sequential or bitmap scan of the pending rows, no sort spilling to disk —
// and the recording of results must find its rows by key.

const url = testPostgresUrl();
const QUEUED = 20_000;
const NOW = 10_000_000;
const WINDOW = 64;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Sort Space Type"?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** What in a plan reads the queue too widely: each problem as a line, none for a good plan. */
function problems(root: PlanNode, maxRowsRead: number): string[] {
  return nodesOf(root).flatMap((node) => {
    const found: string[] = [];
    const table = node["Relation Name"];
    if (node["Node Type"] === "Seq Scan" && (table === "deliveries" || table === "events"))
      found.push(`Seq Scan on ${table}`);
    if (node["Node Type"] === "Bitmap Index Scan" && node["Index Name"] === "deliveries_due_idx")
      found.push("Bitmap Index Scan on deliveries_due_idx");
    if (node["Node Type"] === "Sort" && node["Sort Space Type"] === "Disk") found.push("Sort spilling to disk");
    if (table === "deliveries") {
      const read =
        ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 1);
      if (read > maxRowsRead)
        found.push(`${node["Node Type"]} on deliveries read ${read} rows (at most ${maxRowsRead})`);
    }
    return found;
  });
}

describe.skipIf(!url)("the PostgreSQL claim on a never-analysed queue", () => {
  let pg: TestPgStore;

  beforeAll(async () => {
    pg = await openTestPgStore(url!, 1);
    const sql = pg.sql;
    // Never analysed for the whole test: autovacuum may not get to these tables meanwhile.
    for (const table of ["deliveries", "events", "webhook_rules"])
      await sql.unsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = off)`);
    await pg.store.tenants.insertTenant({
      id: "ten_a",
      name: "a",
      plan: "free",
      sector: "general",
      allowedOrigins: [],
      createdAt: 1,
      updatedAt: 1,
    });
    await pg.store.tenants.insertTenant({
      id: "ten_b",
      name: "b",
      plan: "free",
      sector: "general",
      allowedOrigins: [],
      createdAt: 1,
      updatedAt: 1,
    });
    await sql.unsafe(`INSERT INTO webhook_rules (id, tenant_id, name, event, url, secret, active, created_at, updated_at)
      VALUES ('rule_a', 'ten_a', 'a', 'lead.created', 'https://a.example/hook', 'secret-a-0123456789', true, 1, 1),
             ('rule_b', 'ten_b', 'b', 'lead.created', 'https://b.example/hook', 'secret-b-0123456789', true, 1, 1)`);
    // Two tenants' deliveries interleaved, all due, some sharing a due millisecond; then some
    // already succeeded (outside the partial index).
    await sql.unsafe(`INSERT INTO events (id, tenant_id, event, data, occurred_at)
      SELECT 'evt_' || lpad(g::text, 8, '0'), CASE WHEN g % 3 = 0 THEN 'ten_b' ELSE 'ten_a' END, 'lead.created', '{"lead":{"name":"' || repeat('x', 200) || '"}}', g
      FROM generate_series(1, ${QUEUED}) g`);
    await sql.unsafe(`INSERT INTO deliveries (id, tenant_id, event_id, rule_id, event, url, status, attempts, cycle, next_attempt_at, created_at, updated_at)
      SELECT 'wh_' || lpad(g::text, 8, '0'), CASE WHEN g % 3 = 0 THEN 'ten_b' ELSE 'ten_a' END, 'evt_' || lpad(g::text, 8, '0'),
        CASE WHEN g % 3 = 0 THEN 'rule_b' ELSE 'rule_a' END, 'lead.created', 'https://x.example/hook', 'pending', 0, 1, 1000 + g / 4, 1, 1
      FROM generate_series(1, ${QUEUED}) g`);
    await sql.unsafe(
      `UPDATE deliveries SET status = 'succeeded', next_attempt_at = NULL, completed_at = 2 WHERE id <= 'wh_00001000'`,
    );
  });
  afterAll(async () => {
    await pg?.close();
  });

  /**
   * EXPLAIN ANALYZE of one statement in a transaction, rolled back: a claim's (the claim's plan
   * settings set) or, with `claim` false, the recording's (none set).
   */
  async function plan(text: string, params: unknown[], claim = true): Promise<PlanNode> {
    let root: PlanNode | undefined;
    await pg.sql
      .begin(async (tx: SQL) => {
        if (claim) await tx.unsafe(CLAIM_PLAN_SETTINGS);
        const [row] = (await tx.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)) as Array<{
          "QUERY PLAN": Array<{ Plan: PlanNode }>;
        }>;
        root = row?.["QUERY PLAN"][0]?.Plan;
        throw new RollBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollBack)) throw error;
      });
    if (!root) throw new Error("no plan");
    return root;
  }
  class RollBack extends Error {}

  test("the queue was never analysed", async () => {
    const [row] = (await pg.sql.unsafe(
      "SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = 'deliveries'::regclass",
    )) as Array<{ reltuples: number }>;
    expect(row?.reltuples).toBe(-1);
  });

  test("the fair claim's window walks the due index and stops at the window, capped endpoints and tenants or not", async () => {
    for (const [tenants, endpoints] of [
      [[], []],
      [["ten_b"], []],
      [[], ["https://a.example/hook"]],
    ] as const) {
      const root = await plan(SELECT_CANDIDATES, [NOW, tenants, endpoints, WINDOW]);
      // ten_b is a third of the rows: skipping it reads half a window more.
      expect({ tenants, endpoints, problems: problems(root, WINDOW * 3) }).toEqual({
        tenants,
        endpoints,
        problems: [],
      });
    }
  });

  test("the window's lease looks its rows up by key", async () => {
    const ids = Array.from({ length: WINDOW }, (_, i) => `wh_${String(5_000 + i).padStart(8, "0")}`);
    expect(problems(await plan(LEASE_IDS, [NOW, `att_lease@${NOW + 60_000}`, ids]), WINDOW)).toEqual([]);
  });

  test("a lease finds room beside each row it leases: every lease is a HOT update, no index entry written", async () => {
    // This backend's counts not yet flushed to the statistics, before and after: the difference is the leases'
    // (the table of this test's schema: other files' schemas have one of the same name).
    const counts = async (tx: SQL) =>
      (
        (await tx.unsafe(
          "SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relid = 'deliveries'::regclass",
        )) as Array<{ updated: number; hot: number }>
      )[0] ?? { updated: 0, hot: 0 };
    const leased = await pg.sql
      .begin(async (tx: SQL) => {
        const before = await counts(tx);
        for (let first = 10_001; first <= 12_000; first += WINDOW) {
          const ids = Array.from({ length: WINDOW }, (_, i) => `wh_${String(first + i).padStart(8, "0")}`);
          await tx.unsafe(LEASE_IDS, [NOW, `att_01hzzzzzzzzzzzzzzzzzzzzzzz@${NOW + 60_000}`, ids]);
        }
        const after = await counts(tx);
        throw new RollBack(JSON.stringify({ updated: after.updated - before.updated, hot: after.hot - before.hot }));
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollBack)) throw error;
        return JSON.parse(error.message) as { updated: number; hot: number };
      });
    expect(leased).toEqual({ updated: 2_048, hot: 2_048 });
  });

  test("the one-statement claim walks the due index and stops at its limit", async () => {
    expect(problems(await plan(CLAIM_DUE, [NOW, 256, `att_lease@${NOW + 60_000}`]), 256 * 2)).toEqual([]);
  });

  test("recording a batch of results reads its rows by key", async () => {
    const ids = Array.from({ length: WINDOW }, (_, i) => `wh_${String(7_000 + i).padStart(8, "0")}`);
    await pg.sql.unsafe("UPDATE deliveries SET lease_token = 'att_lease' WHERE id = ANY($1::text[])", [ids]);
    const batch = ids.map((id) => ({
      id,
      lease_token: "att_lease",
      outcome: "succeeded",
      attempt: 1,
      next_attempt_at: null,
      status_code: 200,
      last_error: null,
      finished_at: NOW,
      attempt_id: `att_${id}`,
      cycle: 1,
      started_at: NOW - 5,
      duration_ms: 5,
      ok: true,
      error: null,
      excerpt: null,
      request_headers: { "webhook-id": id },
      dead_id: null,
      tenant_id: "ten_a",
      rule_id: "rule_a",
      event: "lead.created",
      expires_at: null,
    }));
    const params = [JSON.stringify(batch)];
    const root = await plan(RECORD_BATCH, params, false);
    expect(problems(root, WINDOW)).toEqual([]);
    // Every result applied: the plan was of the real write, not of one that found nothing.
    expect(root["Actual Rows"]).toBe(WINDOW);
  });

  test("a claim through the store leases the first due rows in due order, each with its rule's URL", async () => {
    const picker: FairSharePicker = {
      fullTenants: () => [],
      fullEndpoints: () => [],
      pick: (candidates, limit) => candidates.slice(0, limit),
    };
    const { claimed, more } = await pg.store.deliveryQueue.claimFairShare(NOW, 8, 60_000, picker);
    expect(claimed.map((delivery) => delivery.id)).toEqual(
      Array.from({ length: 8 }, (_, i) => `wh_${String(1_001 + i).padStart(8, "0")}`),
    );
    expect(claimed.map((delivery) => delivery.url)).toEqual(
      claimed.map((delivery) => (delivery.tenantId === "ten_b" ? "https://b.example/hook" : "https://a.example/hook")),
    );
    expect(more).toBe(true);
  });
});
