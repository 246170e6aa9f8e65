import type { Deps } from "../deps.ts";
import type { StoreQueries } from "../db/store.ts";
import { AppError } from "../lib/app-error.ts";
import { randomBase62, sha256Hex } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";

export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;

export interface IssuedRefreshToken {
  token: string;
  expiresAt: number;
}

const invalidRefreshToken = (): AppError =>
  new AppError("invalid_refresh_token", 401, "The refresh token is invalid, expired or revoked.");

async function insertRefreshToken(
  deps: Pick<Deps, "clock">,
  store: StoreQueries,
  userId: string,
  familyId: string,
): Promise<IssuedRefreshToken> {
  const now = deps.clock.now();
  // 43 base62 characters ≈ 256 bits: only its SHA-256 is stored, so a database leak cannot be replayed.
  const token = `rt_${randomBase62(43)}`;
  const expiresAt = now + REFRESH_TOKEN_TTL_MS;
  await store.refreshTokens.insertRefreshToken({
    id: newId("rtf", now),
    userId,
    familyId,
    tokenHash: sha256Hex(token),
    expiresAt,
    createdAt: now,
  });
  return { token, expiresAt };
}

/** Starts a new refresh-token family at login. */
export function issueRefreshToken(deps: Deps, userId: string): Promise<IssuedRefreshToken> {
  return insertRefreshToken(deps, deps.store, userId, newId("rtf", deps.clock.now()));
}

/**
 * Exchanges a refresh token for a new one of the same family. A token can be used once: a
 * second use means it was copied (by an attacker, or the owner after the attacker), and we
 * cannot tell which party holds the newest token, so the whole family is revoked and both
 * must log in again.
 */
export async function rotateRefreshToken(
  deps: Deps,
  token: string,
): Promise<{ userId: string; refresh: IssuedRefreshToken }> {
  const now = deps.clock.now();
  const outcome = await deps.store.transaction(async (tx) => {
    const row = await tx.refreshTokens.findRefreshTokenByHash(sha256Hex(token));
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    if (row.rotatedAt !== null) {
      await tx.refreshTokens.revokeRefreshTokenFamily(row.familyId, now);
      return "reused" as const;
    }
    await tx.refreshTokens.markRefreshTokenRotated(row.id, now);
    return { userId: row.userId, refresh: await insertRefreshToken(deps, tx, row.userId, row.familyId) };
  });
  if (outcome === "reused") deps.log.error({ msg: "refresh token reused; family revoked" });
  if (outcome === null || outcome === "reused") throw invalidRefreshToken();
  return outcome;
}

/** Sign-out: the token's whole family stops working. Unknown or spent tokens change nothing. */
export async function revokeRefreshToken(deps: Deps, token: string): Promise<void> {
  const row = await deps.store.refreshTokens.findRefreshTokenByHash(sha256Hex(token));
  if (row) await deps.store.refreshTokens.revokeRefreshTokenFamily(row.familyId, deps.clock.now());
}
