import type { Deps } from "../deps.ts";
import { storageTroubleOf } from "../db/storage-errors.ts";
import type { ApiKeyRow } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import { constantTimeEqual, randomBase62, sha256Hex } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";
import { invalidField } from "../lib/validate.ts";
import { requireTenant } from "../tenants/find-tenant.ts";

// `pk_` + 40 base62 characters ≈ 238 bits. The first 8 random characters are the display
// prefix that also finds the row; the rest is never stored, only the SHA-256 of the whole key.
const KEY_PATTERN = /^pk_[0-9A-Za-z]{40}$/;
const PREFIX_LENGTH = "pk_".length + 8;

export interface ApiKeySummary {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface CreatedApiKey extends ApiKeySummary {
  /** The whole key, shown to the user once. */
  key: string;
}

export async function createApiKey(deps: Deps, input: { tenantId: string; name?: string }): Promise<CreatedApiKey> {
  await requireTenant(deps, input.tenantId);
  const name = (input.name ?? "default").trim();
  if (name.length < 1 || name.length > 100) throw invalidField("name", "must be 1 to 100 characters");
  const now = deps.clock.now();
  const key = `pk_${randomBase62(40)}`;
  const row = {
    id: newId("key", now),
    tenantId: input.tenantId,
    name,
    prefix: key.slice(0, PREFIX_LENGTH),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await deps.store.apiKeys.insertApiKey({ ...row, keyHash: sha256Hex(key) });
  return { ...row, key };
}

/** Everything but the hash. */
const toSummary = ({ keyHash: _hash, ...summary }: ApiKeyRow): ApiKeySummary => summary;

export async function listApiKeys(deps: Deps, tenantId: string): Promise<ApiKeySummary[]> {
  await requireTenant(deps, tenantId);
  return (await deps.store.apiKeys.listTenantApiKeys(tenantId)).map(toSummary);
}

/** Revokes a key at once; revoking twice keeps the first revocation time. */
export async function revokeApiKey(deps: Deps, keyId: string): Promise<ApiKeySummary> {
  const row = await deps.store.apiKeys.findApiKey(keyId);
  if (!row) throw notFound("api_key");
  const existing = toSummary(row);
  if (existing.revokedAt !== null) return existing;
  const revokedAt = deps.clock.now();
  await deps.store.apiKeys.revokeApiKey(keyId, revokedAt);
  return { ...existing, revokedAt };
}

/**
 * The tenant and key id a presented key belongs to, or null. The row is found by its public
 * prefix and the hashes are compared in constant time, so timing leaks nothing of the secret part.
 */
export async function validateApiKey(
  deps: Deps,
  presented: string,
): Promise<{ keyId: string; tenantId: string } | null> {
  if (!KEY_PATTERN.test(presented)) return null;
  const presentedHash = sha256Hex(presented);
  const candidates = await deps.store.apiKeys.listLiveApiKeysByPrefix(presented.slice(0, PREFIX_LENGTH));
  const match = candidates.find((candidate) => constantTimeEqual(candidate.keyHash, presentedHash));
  if (!match) return null;
  // last_used_at is written at most once a minute per key: a write per request would cost more than the request.
  const now = deps.clock.now();
  if (match.lastUsedAt === null || now - match.lastUsedAt > 60_000) {
    // Bookkeeping only, not awaited: a read must not wait while another process holds the
    // write lock, nor fail because of it or a full disk; the next request a minute on writes it.
    deps.store.apiKeys.touchApiKey(match.id, now).catch((error: unknown) => {
      if (!storageTroubleOf(error))
        deps.log.error({ msg: "recording an API key's last use failed", error: String(error) });
    });
  }
  return { keyId: match.id, tenantId: match.tenantId };
}
