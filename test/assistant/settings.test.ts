import { afterEach, describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { openSecret } from "../../src/lib/secret-box.ts";
import { embedderForTenant } from "../../src/assistant/settings.ts";
import { login } from "../helpers.ts";
import { answer, httpError, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let tenantProvider: FakeProvider | null = null;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
  tenantProvider?.stop();
  tenantProvider = null;
});

async function keyOf(f: AssistantFixture): Promise<string> {
  return (await createApiKey(f.context.deps, { tenantId: f.tenantId, name: "admin" })).key;
}

const patchConfig = (f: AssistantFixture, key: string, body: unknown) =>
  f.context.request("PATCH", "/api/v1/chatbot/config", { body, headers: { "x-api-key": key } });

describe("the tenant's ai settings in PATCH /api/v1/chatbot/config", () => {
  test("the api_key is write-only: never returned, stored sealed, api_key_set instead", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const key = await keyOf(fixture);
    const response = await patchConfig(fixture, key, {
      ai: {
        api_key: "sk-tenant-secret-42",
        model: "gpt-4o-mini",
        temperature: 0.2,
        max_reply_tokens: 300,
        instructions: "Always mention our free parking.",
      },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain("sk-tenant-secret-42");
    expect(text).not.toContain("api_key_sealed");
    const patched = JSON.parse(text) as { ai: Record<string, unknown> };
    expect(patched.ai).toEqual({
      enabled: true,
      base_url: null,
      model: "gpt-4o-mini",
      embedding_model: null,
      instructions: "Always mention our free parking.",
      temperature: 0.2,
      max_reply_tokens: 300,
      min_similarity: null,
      api_key_set: true,
    });
    const read = await (
      await fixture.context.request("GET", "/api/v1/chatbot/config", { headers: { "x-api-key": key } })
    ).text();
    expect(read).not.toContain("sk-tenant-secret-42");
    expect((JSON.parse(read) as { ai: { api_key_set: boolean } }).ai.api_key_set).toBe(true);

    const store = fixture.context.deps.store;
    const chatbotId = (await store.botConfigs.findBotConfigVersion(fixture.tenantId))?.chatbotId ?? "";
    const stored = JSON.stringify((await store.botConfigs.findBotConfigDocument(chatbotId))?.config ?? {});
    expect(stored).not.toContain("sk-tenant-secret-42");
    const sealed = (JSON.parse(stored) as { ai: { api_key_sealed: string } }).ai.api_key_sealed;
    expect(openSecret(fixture.context.deps, sealed)).toBe("sk-tenant-secret-42");
    // Sealed under another server secret, the key is unreadable rather than wrong.
    expect(
      openSecret(
        {
          ...fixture.context.deps,
          config: { ...fixture.context.deps.config, jwtSecret: "another-secret-another-secret-another-1234" },
        },
        sealed,
      ),
    ).toBeNull();

    // The tenant's key and settings are what the model call uses.
    provider.script(answer("Hi."));
    await fixture.send("hello");
    expect(provider.requests[0]?.authorization).toBe("Bearer sk-tenant-secret-42");
    expect(provider.requests[0]?.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2, max_tokens: 300 });
    expect(provider.requests[0]?.body.messages[0]?.content).toContain("Always mention our free parking.");

    const cleared = (await (await patchConfig(fixture, key, { ai: { api_key: null } })).json()) as {
      ai: { api_key_set: boolean };
    };
    expect(cleared.ai.api_key_set).toBe(false);
  });

  test("bad ai values are a 422 naming the field", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const key = await keyOf(fixture);
    for (const [ai, field] of [
      [{ temperature: 3 }, "ai.temperature"],
      [{ max_reply_tokens: 1.5 }, "ai.max_reply_tokens"],
      [{ base_url: "ftp://models.example" }, "ai.base_url"],
      [{ base_url: "https://user:pw@models.example/v1" }, "ai.base_url"],
      [{ enabled: "yes" }, "ai.enabled"],
      [{ organisation: "x" }, "ai.organisation"],
      [{ api_key: "" }, "ai.api_key"],
    ] as const) {
      const response = await patchConfig(fixture, key, { ai });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { details: Array<{ field: string }> }).details[0]?.field).toBe(field);
    }
  });

  test("a tenant's base_url obeys the webhook SSRF rules at PATCH time", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider, { allowPrivateWebhooks: false });
    const key = await keyOf(fixture);
    for (const url of [
      "http://127.0.0.1:11434/v1",
      "http://localhost:8000/v1",
      "http://169.254.169.254/latest",
      "http://[::1]:1234/v1",
      "https://models.internal.example/v1",
    ]) {
      const response = await patchConfig(fixture, key, { ai: { base_url: url, model: "m" } });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { details: Array<{ field: string }> }).details[0]?.field).toBe("ai.base_url");
    }
  });

  test("a tenant's base_url is checked again at call time: a private one falls back without a request", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider, { allowPrivateWebhooks: false });
    // Stored behind the route's back (as if DNS changed since the PATCH).
    await updateBotConfig(fixture.context.deps, fixture.tenantId, {
      ai: { base_url: provider.url, model: "tenant-model" },
    });
    const body = (await (await fixture.send("How much is teeth whitening?")).json()) as ReplyBody;
    expect(body.reply?.text.length).toBeGreaterThan(0);
    expect(provider.requests).toEqual([]);
  });

  test("a tenant's own base_url gets its own key and model, never the server's key", async () => {
    provider = startFakeProvider();
    tenantProvider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const key = await keyOf(fixture);
    expect((await patchConfig(fixture, key, { ai: { base_url: tenantProvider.url, model: "llama3.2" } })).status).toBe(
      200,
    );
    tenantProvider.script(answer("From the tenant's own model."));
    const body = (await (await fixture.send("hello")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("From the tenant's own model.");
    expect(provider.requests).toEqual([]);
    expect(tenantProvider.requests[0]?.authorization).toBeNull();
    expect(tenantProvider.requests[0]?.body.model).toBe("llama3.2");
  });
});

describe("POST /api/v1/chatbot/ai/test", () => {
  test("answers ok with the model and latency, or the provider's error; agents are refused", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const key = await keyOf(fixture);
    provider.script(answer("OK"), httpError(401));
    const ok = await fixture.context.request("POST", "/api/v1/chatbot/ai/test", { headers: { "x-api-key": key } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, model: "test-model" });
    expect(provider.requests[0]?.body.max_tokens).toBe(5);
    const failed = (await (
      await fixture.context.request("POST", "/api/v1/chatbot/ai/test", { headers: { "x-api-key": key } })
    ).json()) as { ok: boolean; error: string };
    expect(failed.ok).toBe(false);
    expect(failed.error).toContain("401");

    await createUser(fixture.context.deps, {
      email: "agent@smile.test",
      tenantId: fixture.tenantId,
      role: "agent",
      password: "correct horse battery",
    });
    const agent = await login(fixture.context, "agent@smile.test");
    expect(
      (
        await fixture.context.request("POST", "/api/v1/chatbot/ai/test", {
          headers: { authorization: `Bearer ${agent.access_token}` },
        })
      ).status,
    ).toBe(403);
    expect((await fixture.context.request("POST", "/api/v1/chatbot/ai/test")).status).toBe(401);
  });

  test("without a provider it says so", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider, { aiBaseUrl: null, aiModel: null });
    const body = (await (
      await fixture.context.request("POST", "/api/v1/chatbot/ai/test", {
        headers: { "x-api-key": await keyOf(fixture) },
      })
    ).json()) as { ok: boolean; model: string | null; error: string };
    expect(body).toMatchObject({ ok: false, model: null });
    expect(body.error).toContain("No model provider");
  });
});

describe("server-wide PARLEY_AI_* settings and the embedder", () => {
  test("loadConfig reads the provider settings; the timeout defaults to 20 s", () => {
    const config = loadConfig({
      PARLEY_AI_BASE_URL: "http://localhost:11434/v1/",
      PARLEY_AI_MODEL: "llama3.2",
      PARLEY_AI_EMBEDDING_MODEL: "nomic-embed-text",
    });
    expect(config).toMatchObject({
      aiBaseUrl: "http://localhost:11434/v1",
      aiModel: "llama3.2",
      aiApiKey: null,
      aiEmbeddingModel: "nomic-embed-text",
      aiTimeoutMs: 20_000,
    });
    expect(loadConfig({}).aiBaseUrl).toBeNull();
    expect(() => loadConfig({ PARLEY_AI_TIMEOUT: "soon" })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_AI_BASE_URL: "not a url" })).toThrow(/PARLEY_AI_BASE_URL/);
  });

  test("embedderForTenant is null without an embedding model and calls POST /embeddings with one", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    expect(await embedderForTenant(fixture.context.deps, fixture.tenantId)).toBeNull();
    fixture.context.close();
    fixture = await assistantFixture(provider, { aiEmbeddingModel: "embed-small" });
    const embedder = await embedderForTenant(fixture.context.deps, fixture.tenantId);
    expect(embedder?.model).toBe("embed-small");
    const vectors = await embedder!.embed(["one", "two words"]);
    expect(vectors).toHaveLength(2);
    const sent = provider.requests.at(-1);
    expect(sent?.path).toBe("/v1/embeddings");
    expect(sent?.body).toMatchObject({ model: "embed-small", input: ["one", "two words"] });
    expect(sent?.authorization).toBe("Bearer server-key-123");
  });
});
