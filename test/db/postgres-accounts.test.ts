import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { openDatabase, type DatabaseHandle } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import type { AnalyticsEventRow, ApiKeyRow, TenantRow } from "../../src/db/rows.ts";
import type { Store } from "../../src/db/store.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

// Differential test of the accounts, integrations and analytics aggregates (src/db/postgres/
// accounts.ts, integrations.ts, analytics.ts): the same operations through the SQLite store and
// the PostgreSQL store, every result equal between the two. Runs when PARLEY_TEST_DB names a
// PostgreSQL server.

type Mine = Pick<
  Store,
  "tenants" | "users" | "apiKeys" | "refreshTokens" | "settings" | "integrations" | "analytics" | "transaction"
>;

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;

describe.skipIf(!testPostgresUrl())("accounts, integrations and analytics on PostgreSQL = SQLite", () => {
  let handle: DatabaseHandle;
  let lite: Mine;
  let pg: Mine;
  let testPg: TestPgStore;
  let sql: SQL;

  /** Runs `op` on both stores, asserts the results are equal, returns SQLite's. */
  async function both<T>(op: (store: Mine) => Promise<T>): Promise<T> {
    const a = await op(lite);
    const b = await op(pg);
    expect(b).toEqual(a);
    return a;
  }

  /** The same raw statement on both databases (`$n` parameters): parent rows of other aggregates. */
  async function rawBoth(text: string, params: Array<string | number | null>): Promise<void> {
    handle.sqlite.prepare(text.replace(/\$(\d+)/g, "?$1")).run(...params);
    await sql.unsafe(text, params);
  }

  async function rowsBoth<T>(text: string): Promise<T[]> {
    const a = handle.sqlite.prepare<T, []>(text).all();
    const b = [...(await sql.unsafe<T[]>(text))];
    expect(b).toEqual(a);
    return a;
  }

  beforeAll(async () => {
    const url = testPostgresUrl()!;
    handle = openDatabase(":memory:");
    applyMigrations(handle.sqlite, NOW);
    lite = handle.store;
    testPg = await openTestPgStore(url, NOW);
    sql = testPg.sql;
    pg = testPg.store;
  });

  afterAll(async () => {
    handle?.close();
    await testPg?.close();
  });

  const tenant = (id: string, allowedOrigins: string[], plan = "free"): TenantRow => ({
    id,
    name: `Tenant ${id}`,
    plan,
    sector: "dental",
    allowedOrigins,
    createdAt: NOW,
    updatedAt: NOW + 1,
  });

  test("tenants: lookup version, find, list, origins, plan, chatbots", async () => {
    const versions = async () => ({
      lite: await lite.tenants.findLookupVersion(),
      pg: await pg.tenants.findLookupVersion(),
    });
    const changed = async (before: { lite: string; pg: string }) => {
      const after = await versions();
      return { lite: after.lite !== before.lite, pg: after.pg !== before.pg, after };
    };
    let v = await versions();
    expect(typeof v.pg).toBe("string");

    expect(await both((s) => s.tenants.listTenants())).toEqual([]);
    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://a.example"))).toBe(false);

    // A tenant that allows two origins only.
    await both((s) => s.tenants.insertTenant(tenant("ten_b", ["https://a.example", "https://b.example"], "pro")));
    let c = await changed(v);
    expect({ lite: c.lite, pg: c.pg }).toEqual({ lite: true, pg: true });
    v = c.after;

    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://a.example"))).toBe(true);
    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://b.example"))).toBe(true);
    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://c.example"))).toBe(false);
    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://a.exampl"))).toBe(false);

    // Before its chatbot exists: chatbotId null.
    expect(await both((s) => s.tenants.findTenant("ten_b"))).toEqual({
      ...tenant("ten_b", ["https://a.example", "https://b.example"], "pro"),
      chatbotId: null,
    });
    expect(await both((s) => s.tenants.findTenant("ten_missing"))).toBeNull();
    expect(await both((s) => s.tenants.findTenantPlan("ten_b"))).toBe("pro");
    expect(await both((s) => s.tenants.findTenantPlan("ten_missing"))).toBeNull();

    // Two chatbots, the second with the smaller id: findTenant reports the smallest; one has no config (the default).
    await both((s) =>
      s.tenants.insertChatbot({
        id: "bot_z",
        tenantId: "ten_b",
        name: "Z",
        config: { greeting: "hi", faq: [{ q: "a", a: "b" }] },
        createdAt: NOW,
        updatedAt: NOW,
      }),
    );
    c = await changed(v);
    expect({ lite: c.lite, pg: c.pg }).toEqual({ lite: true, pg: true });
    v = c.after;
    await both((s) =>
      s.tenants.insertChatbot({ id: "bot_Y", tenantId: "ten_b", name: "Y", createdAt: NOW, updatedAt: NOW }),
    );
    v = await versions();
    expect((await both((s) => s.tenants.findTenant("ten_b")))?.chatbotId).toBe("bot_Y");
    await rowsBoth("SELECT id, CAST(config AS text) AS config FROM chatbots ORDER BY id");

    // Tenant ids in byte order (upper case before lower case), an open tenant among them.
    await both((s) => s.tenants.insertTenant(tenant("ten_a", [])));
    await both((s) => s.tenants.insertTenant(tenant("ten_C", ["https://c.example"], "team")));
    await both((s) =>
      s.tenants.insertChatbot({
        id: "bot_a",
        tenantId: "ten_a",
        name: "A",
        config: {},
        createdAt: NOW,
        updatedAt: NOW,
      }),
    );
    v = await versions();
    const listed = await both((s) => s.tenants.listTenants());
    expect(listed.map((t) => [t.id, t.chatbotId])).toEqual([
      ["ten_C", null],
      ["ten_a", "bot_a"],
      ["ten_b", "bot_Y"],
    ]);
    expect(await both((s) => s.tenants.anyTenantAllowsOrigin("https://anything.example"))).toBe(true);

    // A plan change moves the version; writes elsewhere do not.
    await both((s) => s.tenants.updateTenantPlan("ten_a", "business", NOW + 50));
    c = await changed(v);
    expect({ lite: c.lite, pg: c.pg }).toEqual({ lite: true, pg: true });
    v = c.after;
    expect(await both((s) => s.tenants.findTenant("ten_a"))).toEqual({
      ...tenant("ten_a", [], "business"),
      updatedAt: NOW + 50,
      chatbotId: "bot_a",
    });
    await both((s) => s.settings.putSetting("unrelated", "1"));
    await both((s) =>
      s.users.insertUser({
        id: "usr_unrelated",
        email: "u@example.com",
        passwordHash: "h",
        displayName: null,
        createdAt: NOW,
      }),
    );
    c = await changed(v);
    expect({ lite: c.lite, pg: c.pg }).toEqual({ lite: false, pg: false });

    // PostgreSQL: a write by another connection (the CLI) moves it too, read from the pool.
    const other = new SQL({ url: testPostgresUrl()!, max: 1, connection: { search_path: testPg.schema } });
    await other.unsafe("UPDATE tenants SET plan = 'free' WHERE id = 'ten_C'");
    await other.close();
    expect(await pg.tenants.findLookupVersion()).not.toBe(v.pg);
    expect(await pg.tenants.findTenantPlan("ten_C")).toBe("free");
    await rawBoth("UPDATE tenants SET plan = 'free' WHERE id = 'ten_C'", []);
  });

  test("users and memberships", async () => {
    expect(await both((s) => s.users.findUserByEmail("ada@example.com"))).toBeNull();
    expect(await both((s) => s.users.findUser("usr_ada"))).toBeNull();
    await both((s) =>
      s.users.insertUser({
        id: "usr_ada",
        email: "ada@example.com",
        passwordHash: "hash1",
        displayName: null,
        createdAt: NOW + 3,
      }),
    );
    expect(await both((s) => s.users.findUserByEmail("ada@example.com"))).toEqual({
      id: "usr_ada",
      email: "ada@example.com",
      passwordHash: "hash1",
      displayName: null,
      createdAt: NOW + 3,
    });
    expect(await both((s) => s.users.findUserByEmail("ADA@example.com"))).toBeNull();
    await both((s) => s.users.updatePasswordHash("usr_ada", "hash2"));
    expect((await both((s) => s.users.findUser("usr_ada")))?.passwordHash).toBe("hash2");
    await both((s) => s.users.updatePasswordHash("usr_missing", "hash3"));
    await both((s) => s.users.updateDisplayName("usr_ada", "Ada Lovelace"));
    expect((await both((s) => s.users.findUser("usr_ada")))?.displayName).toBe("Ada Lovelace");
    await both((s) => s.users.updateDisplayName("usr_ada", null));
    expect((await both((s) => s.users.findUser("usr_ada")))?.displayName).toBeNull();
    await both((s) => s.users.updateDisplayName("usr_missing", "Nobody"));
    await both((s) =>
      s.users.insertUser({
        id: "usr_named",
        email: "named@example.com",
        passwordHash: "h",
        displayName: "Bea",
        createdAt: NOW,
      }),
    );
    expect((await both((s) => s.users.findUser("usr_named")))?.displayName).toBe("Bea");

    expect(await both((s) => s.users.listMemberships("usr_ada"))).toEqual([]);
    await both((s) =>
      s.users.insertMembership({ userId: "usr_ada", tenantId: "ten_b", role: "owner", createdAt: NOW }),
    );
    await both((s) =>
      s.users.insertMembership({ userId: "usr_ada", tenantId: "ten_a", role: "agent", createdAt: NOW + 1 }),
    );
    await both((s) =>
      s.users.insertMembership({ userId: "usr_ada", tenantId: "ten_C", role: "admin", createdAt: NOW + 2 }),
    );
    await both((s) =>
      s.users.insertMembership({ userId: "usr_unrelated", tenantId: "ten_a", role: "owner", createdAt: NOW }),
    );
    expect(await both((s) => s.users.findMembership("usr_ada", "ten_a"))).toEqual({
      userId: "usr_ada",
      tenantId: "ten_a",
      role: "agent",
      createdAt: NOW + 1,
    });
    expect(await both((s) => s.users.findMembership("usr_ada", "ten_missing"))).toBeNull();
    expect((await both((s) => s.users.listMemberships("usr_ada"))).map((m) => m.tenantId)).toEqual([
      "ten_C",
      "ten_a",
      "ten_b",
    ]);

    // A duplicate e-mail fails on both.
    const dup = { id: "usr_dup", email: "ada@example.com", passwordHash: "x", displayName: null, createdAt: NOW };
    await expect(lite.users.insertUser(dup)).rejects.toThrow();
    await expect(pg.users.insertUser(dup)).rejects.toThrow();
  });

  test("API keys", async () => {
    const key = (id: string, tenantId: string, prefix: string, extra: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
      id,
      tenantId,
      name: `key ${id}`,
      prefix,
      keyHash: `hash-${id}`,
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
      ...extra,
    });
    expect(await both((s) => s.apiKeys.listTenantApiKeys("ten_a"))).toEqual([]);
    await both((s) => s.apiKeys.insertApiKey(key("key_01", "ten_a", "pk_aaaa")));
    await both((s) =>
      s.apiKeys.insertApiKey(key("key_02", "ten_a", "pk_bbbb", { lastUsedAt: NOW + 10, revokedAt: NOW + 20 })),
    );
    await both((s) => s.apiKeys.insertApiKey(key("key_03", "ten_a", "pk_aaaa", { createdAt: NOW + 5 })));
    await both((s) => s.apiKeys.insertApiKey(key("key_04", "ten_b", "pk_cccc")));
    expect((await both((s) => s.apiKeys.listTenantApiKeys("ten_a"))).map((k) => k.id)).toEqual([
      "key_03",
      "key_02",
      "key_01",
    ]);
    expect(await both((s) => s.apiKeys.findApiKey("key_02"))).toEqual(
      key("key_02", "ten_a", "pk_bbbb", { lastUsedAt: NOW + 10, revokedAt: NOW + 20 }),
    );
    expect(await both((s) => s.apiKeys.findApiKey("key_missing"))).toBeNull();
    expect((await both((s) => s.apiKeys.listLiveApiKeysByPrefix("pk_aaaa"))).map((k) => k.id)).toEqual([
      "key_01",
      "key_03",
    ]);
    expect(await both((s) => s.apiKeys.listLiveApiKeysByPrefix("pk_bbbb"))).toEqual([]);
    await both((s) => s.apiKeys.touchApiKey("key_01", NOW + 100));
    await both((s) => s.apiKeys.revokeApiKey("key_03", NOW + 200));
    expect(await both((s) => s.apiKeys.listLiveApiKeysByPrefix("pk_aaaa"))).toEqual([
      key("key_01", "ten_a", "pk_aaaa", { lastUsedAt: NOW + 100 }),
    ]);
    expect((await both((s) => s.apiKeys.findApiKey("key_03")))?.revokedAt).toBe(NOW + 200);
  });

  test("refresh tokens", async () => {
    const token = (id: string, familyId: string, tokenHash: string) => ({
      id,
      userId: "usr_ada",
      familyId,
      tokenHash,
      expiresAt: NOW + 30 * DAY,
      createdAt: NOW,
    });
    expect(await both((s) => s.refreshTokens.findRefreshTokenByHash("th1"))).toBeNull();
    await both((s) => s.refreshTokens.insertRefreshToken(token("rtf_1", "fam_1", "th1")));
    await both((s) => s.refreshTokens.insertRefreshToken(token("rtf_2", "fam_1", "th2")));
    await both((s) => s.refreshTokens.insertRefreshToken(token("rtf_3", "fam_2", "th3")));
    await both((s) =>
      s.refreshTokens.insertRefreshToken({ ...token("rtf_4", "fam_3", "th4"), userId: "usr_unrelated" }),
    );
    expect(await both((s) => s.refreshTokens.findRefreshTokenByHash("th1"))).toEqual({
      ...token("rtf_1", "fam_1", "th1"),
      rotatedAt: null,
      revokedAt: null,
    });
    await both((s) => s.refreshTokens.markRefreshTokenRotated("rtf_1", NOW + 1));
    await rawBoth("UPDATE refresh_tokens SET revoked_at = $1 WHERE id = $2", [NOW + 2, "rtf_1"]);
    await both((s) => s.refreshTokens.revokeRefreshTokenFamily("fam_1", NOW + 3));
    // rtf_1 keeps its earlier revocation; rtf_2 is revoked now; fam_2 untouched.
    expect(await both((s) => s.refreshTokens.findRefreshTokenByHash("th1"))).toEqual({
      ...token("rtf_1", "fam_1", "th1"),
      rotatedAt: NOW + 1,
      revokedAt: NOW + 2,
    });
    expect((await both((s) => s.refreshTokens.findRefreshTokenByHash("th2")))?.revokedAt).toBe(NOW + 3);
    expect((await both((s) => s.refreshTokens.findRefreshTokenByHash("th3")))?.revokedAt).toBeNull();
    await both((s) => s.refreshTokens.revokeUserRefreshTokens("usr_ada", NOW + 4));
    await rowsBoth("SELECT id, CAST(revoked_at AS double precision) AS revoked_at FROM refresh_tokens ORDER BY id");
    expect((await both((s) => s.refreshTokens.findRefreshTokenByHash("th1")))?.revokedAt).toBe(NOW + 4);
    expect((await both((s) => s.refreshTokens.findRefreshTokenByHash("th4")))?.revokedAt).toBeNull();
  });

  test("settings", async () => {
    expect(await both((s) => s.settings.findSetting("jwt_secret"))).toBeNull();
    await both((s) => s.settings.insertSettingIfMissing("jwt_secret", "first"));
    await both((s) => s.settings.insertSettingIfMissing("jwt_secret", "second"));
    expect(await both((s) => s.settings.findSetting("jwt_secret"))).toBe("first");
    await both((s) => s.settings.putSetting("jwt_secret", "third"));
    expect(await both((s) => s.settings.findSetting("jwt_secret"))).toBe("third");
    await both((s) => s.settings.putSetting("demo_tenant", "ten_a"));
    expect(await both((s) => s.settings.findSetting("demo_tenant"))).toBe("ten_a");
  });

  test("integrations: secrets, payment events, WhatsApp ids", async () => {
    expect(await both((s) => s.integrations.findTenantSecrets("ten_a"))).toBeNull();
    await both((s) => s.integrations.upsertPaymentSecret("ten_a", "whsec_1", NOW));
    expect(await both((s) => s.integrations.findTenantSecrets("ten_a"))).toEqual({
      tenantId: "ten_a",
      paymentSecret: "whsec_1",
      whatsappVerifyToken: null,
      whatsappAppSecret: null,
      whatsappAccessToken: null,
      whatsappPhoneNumberId: null,
      updatedAt: NOW,
    });
    const creds = { verifyToken: "vt", appSecret: "as", accessToken: "at", phoneNumberId: "pn" };
    await both((s) => s.integrations.upsertWhatsappCredentials("ten_a", creds, NOW + 1));
    await both((s) => s.integrations.upsertWhatsappCredentials("ten_b", creds, NOW + 2));
    await both((s) => s.integrations.upsertPaymentSecret("ten_a", "whsec_2", NOW + 3));
    expect(await both((s) => s.integrations.findTenantSecrets("ten_a"))).toEqual({
      tenantId: "ten_a",
      paymentSecret: "whsec_2",
      whatsappVerifyToken: "vt",
      whatsappAppSecret: "as",
      whatsappAccessToken: "at",
      whatsappPhoneNumberId: "pn",
      updatedAt: NOW + 3,
    });
    expect((await both((s) => s.integrations.findTenantSecrets("ten_b")))?.paymentSecret).toBeNull();

    expect(await both((s) => s.integrations.findPaymentEvent("stripe", "evt_x", "ten_a"))).toBeNull();
    await both((s) =>
      s.integrations.insertPaymentEvent({
        provider: "stripe",
        providerEventId: "evt_x",
        tenantId: "ten_a",
        eventId: "evt_1",
        receivedAt: NOW,
      }),
    );
    await both((s) =>
      s.integrations.insertPaymentEvent({
        provider: "stripe",
        providerEventId: "evt_x",
        tenantId: "ten_b",
        eventId: "evt_2",
        receivedAt: NOW + 10,
      }),
    );
    await both((s) =>
      s.integrations.insertPaymentEvent({
        provider: "paddle",
        providerEventId: "evt_y",
        tenantId: "ten_a",
        eventId: "evt_3",
        receivedAt: NOW + 20,
      }),
    );
    expect(await both((s) => s.integrations.findPaymentEvent("stripe", "evt_x", "ten_b"))).toEqual({
      provider: "stripe",
      providerEventId: "evt_x",
      tenantId: "ten_b",
      eventId: "evt_2",
      receivedAt: NOW + 10,
    });
    expect(await both((s) => s.integrations.findPaymentEvent("paddle", "evt_x", "ten_a"))).toBeNull();
    const dupEvent = {
      provider: "stripe",
      providerEventId: "evt_x",
      tenantId: "ten_a",
      eventId: "evt_9",
      receivedAt: NOW,
    };
    await expect(lite.integrations.insertPaymentEvent(dupEvent)).rejects.toThrow();
    await expect(pg.integrations.insertPaymentEvent(dupEvent)).rejects.toThrow();
    expect(await both((s) => s.integrations.purgePaymentEventsBefore(NOW + 10))).toBe(2);
    expect(await both((s) => s.integrations.purgePaymentEventsBefore(NOW + 10))).toBe(0);
    expect((await both((s) => s.integrations.findPaymentEvent("paddle", "evt_y", "ten_a")))?.eventId).toBe("evt_3");

    expect(await both((s) => s.integrations.hasWhatsappMessage("ten_a", "wamid.1"))).toBe(false);
    expect(await both((s) => s.integrations.insertWhatsappMessage("ten_a", "wamid.1", NOW))).toBe(true);
    expect(await both((s) => s.integrations.insertWhatsappMessage("ten_a", "wamid.1", NOW + 5))).toBe(false);
    expect(await both((s) => s.integrations.insertWhatsappMessage("ten_b", "wamid.1", NOW + 5))).toBe(true);
    expect(await both((s) => s.integrations.insertWhatsappMessage("ten_a", "wamid.2", NOW + 9))).toBe(true);
    expect(await both((s) => s.integrations.hasWhatsappMessage("ten_a", "wamid.1"))).toBe(true);
    expect(await both((s) => s.integrations.hasWhatsappMessage("ten_C", "wamid.1"))).toBe(false);
    await rowsBoth(
      "SELECT tenant_id, message_id, CAST(received_at AS double precision) AS received_at FROM whatsapp_messages ORDER BY tenant_id, message_id",
    );
    expect(await both((s) => s.integrations.purgeWhatsappMessagesBefore(NOW + 5))).toBe(2);
    expect(await both((s) => s.integrations.hasWhatsappMessage("ten_a", "wamid.2"))).toBe(true);
    expect(await both((s) => s.integrations.purgeWhatsappMessagesBefore(NOW))).toBe(0);
  });

  test("analytics: widget events, purge, conversations, leads, appointments by UTC day", async () => {
    const base = Date.UTC(2024, 2, 10); // 2024-03-10T00:00Z
    const event = (
      name: string,
      at: number,
      sessionId: string | null = null,
      tenantId = "ten_a",
    ): Omit<AnalyticsEventRow, "id"> => ({
      tenantId,
      sessionId,
      name,
      day: new Date(at).toISOString().slice(0, 10),
      occurredAt: at,
    });
    await both((s) => s.analytics.insertAnalyticsEvents([]));
    await both((s) =>
      s.analytics.insertAnalyticsEvents([
        event("widget_opened", base - 1),
        event("widget_loaded", base - 1),
        event("widget_loaded", base),
        event("widget_loaded", base + 5, "ses_1"),
        event("message_sent", base + DAY - 1, "ses_1"),
        event("widget_closed", base + DAY),
        event("widget_loaded", base + 2 * DAY, null, "ten_b"),
      ]),
    );
    // Inside a transaction too (record-events.ts).
    await both((s) =>
      s.transaction((tx) =>
        tx.analytics.insertAnalyticsEvents([
          event("quick_reply_clicked", base + 2 * DAY, "ses_2"),
          event("widget_loaded", base + 3 * DAY),
        ]),
      ),
    );
    // Outside a transaction; the second row's day comes before the others' (the purge below takes it first).
    await both((s) =>
      s.analytics.insertAnalyticsEvents([
        event("widget_opened", base + DAY + 7),
        event("widget_closed", base - DAY - 5),
      ]),
    );
    const stored = await rowsBoth<{ id: number }>(
      "SELECT CAST(id AS integer) AS id, tenant_id, session_id, name, day, CAST(occurred_at AS double precision) AS occurred_at FROM analytics_events ORDER BY id",
    );
    expect(stored.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);

    const widget = await both((s) => s.analytics.countWidgetEventsByDay("ten_a", "2024-03-09", "2024-03-13"));
    expect(widget).toEqual([
      { day: "2024-03-09", name: "widget_loaded", n: 1 },
      { day: "2024-03-09", name: "widget_opened", n: 1 },
      { day: "2024-03-10", name: "message_sent", n: 1 },
      { day: "2024-03-10", name: "widget_loaded", n: 2 },
      { day: "2024-03-11", name: "widget_closed", n: 1 },
      { day: "2024-03-11", name: "widget_opened", n: 1 },
      { day: "2024-03-12", name: "quick_reply_clicked", n: 1 },
      { day: "2024-03-13", name: "widget_loaded", n: 1 },
    ]);
    await both((s) => s.analytics.countWidgetEventsByDay("ten_a", "2024-03-10", "2024-03-11"));
    expect(await both((s) => s.analytics.countWidgetEventsByDay("ten_a", "2024-03-14", "2024-03-20"))).toEqual([]);
    expect(await both((s) => s.analytics.countWidgetEventsByDay("ten_b", "2024-03-12", "2024-03-12"))).toEqual([
      { day: "2024-03-12", name: "widget_loaded", n: 1 },
    ]);

    // Purge in batches: the same rows go, in (day, id) order.
    expect(await both((s) => s.analytics.purgeAnalyticsEventsBefore("ten_a", "2024-03-11", 3))).toBe(3);
    const afterOne = await rowsBoth<{ id: number }>(
      "SELECT CAST(id AS integer) AS id FROM analytics_events ORDER BY id",
    );
    expect(afterOne.map((row) => row.id)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await both((s) => s.analytics.purgeAnalyticsEventsBefore("ten_a", "2024-03-11", 3))).toBe(3);
    expect(await both((s) => s.analytics.purgeAnalyticsEventsBefore("ten_a", "2024-03-11", 3))).toBe(0);
    expect(await both((s) => s.analytics.purgeAnalyticsEventsBefore("ten_b", "2024-03-20", 0))).toBe(0);
    const left = await rowsBoth<{ id: number }>("SELECT CAST(id AS integer) AS id FROM analytics_events ORDER BY id");
    expect(left.map((row) => row.id)).toEqual([6, 7, 8, 9, 10]);
    // A negative limit is no limit on SQLite: everything before the day goes.
    expect(await both((s) => s.analytics.purgeAnalyticsEventsBefore("ten_a", "2024-03-12", -1))).toBe(2);

    // Sessions (message_count > 0 only), leads and appointments, across UTC day edges and the range's ends.
    const sessions: Array<[string, number, number, string | null]> = [
      ["ses_01", base - 1, 3, null], // before the range
      ["ses_02", base, 1, null],
      ["ses_03", base + 1000, 2, "asked_for_human"],
      ["ses_04", base + 5000, 0, "asked_for_human"], // no message: not a conversation
      ["ses_05", base + DAY - 1, 4, "low_confidence"],
      ["ses_06", base + DAY, 1, null],
      ["ses_07", base + 2 * DAY + 999, 2, null],
      ["ses_08", base + 3 * DAY, 1, null], // the range's end, excluded
    ];
    for (const [id, createdAt, messages, handoff] of sessions) {
      await rawBoth(
        `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, handoff_reason, created_at, updated_at)
         VALUES ($1, 'ten_a', 'bot_a', 'web', 'open', 'greeting', $2, $3, $4, $4)`,
        [id, messages, handoff, createdAt],
      );
    }
    await rawBoth(
      `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, handoff_reason, created_at, updated_at)
       VALUES ('ses_other', 'ten_b', 'bot_Y', 'web', 'open', 'greeting', 5, NULL, $1, $1)`,
      [base],
    );
    const conversations = await both((s) => s.analytics.countConversationsByDay("ten_a", base, base + 3 * DAY));
    expect(conversations).toEqual([
      { day: "2024-03-10", conversations: 3, handoffs: 2 },
      { day: "2024-03-11", conversations: 1, handoffs: 0 },
      { day: "2024-03-12", conversations: 1, handoffs: 0 },
    ]);
    expect(await both((s) => s.analytics.countConversationsByDay("ten_a", base + 10 * DAY, base + 11 * DAY))).toEqual(
      [],
    );
    await both((s) => s.analytics.countConversationsByDay("ten_a", base - DAY, base + 4 * DAY));

    const captured = [base - 1, base, base + 10, base + DAY - 1, base + DAY, base + 2 * DAY];
    for (const [index, at] of captured.entries()) {
      await rawBoth(
        `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
         VALUES ($1, 'ten_a', 'bot_a', 'ses_02', 'Ada', '+100', 'a@example.com', 'cleaning', 'chat', 0.9, $2)`,
        [`lead_${index}`, at],
      );
      await rawBoth(
        `INSERT INTO appointments (id, tenant_id, chatbot_id, session_id, starts_at, ends_at, timezone, name, phone, email, confidence, created_at)
         VALUES ($1, 'ten_a', 'bot_a', 'ses_02', $2, $3, 'UTC', NULL, NULL, NULL, 0.8, $4)`,
        [
          `apt_${index}`,
          base + 100 * DAY + index * 3_600_000,
          base + 100 * DAY + index * 3_600_000 + 1_800_000,
          at + (index % 2 === 0 ? DAY : 0),
        ],
      );
    }
    expect(await both((s) => s.analytics.countLeadsByDay("ten_a", base, base + 2 * DAY))).toEqual([
      { day: "2024-03-10", n: 3 },
      { day: "2024-03-11", n: 1 },
    ]);
    expect(await both((s) => s.analytics.countLeadsByDay("ten_b", base, base + 2 * DAY))).toEqual([]);
    await both((s) => s.analytics.countLeadsByDay("ten_a", 0, base + 100 * DAY));
    const appointments = await both((s) => s.analytics.countAppointmentsByDay("ten_a", base - DAY, base + 4 * DAY));
    expect(appointments.reduce((total, row) => total + row.n, 0)).toBe(6);
    await both((s) => s.analytics.countAppointmentsByDay("ten_a", base, base + DAY));
  });
});
