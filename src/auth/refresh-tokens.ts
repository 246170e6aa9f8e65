import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { refreshTokens } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { AppError } from "../lib/app-error.ts";
import { randomBase62, sha256Hex } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";

export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;

export interface IssuedRefreshToken {
  token: string;
  expiresAt: number;
}

const invalidRefreshToken = (): AppError => new AppError("invalid_refresh_token", 401, "The refresh token is invalid, expired or revoked.");

function insertRefreshToken(deps: Deps, userId: string, familyId: string): IssuedRefreshToken {
  const now = deps.clock.now();
  // 43 base62 characters ≈ 256 bits: only its SHA-256 is stored, so a database leak cannot be replayed.
  const token = `rt_${randomBase62(43)}`;
  const expiresAt = now + REFRESH_TOKEN_TTL_MS;
  deps.db.insert(refreshTokens).values({ id: newId("rtf", now), userId, familyId, tokenHash: sha256Hex(token), expiresAt, createdAt: now }).run();
  return { token, expiresAt };
}

/** Starts a new refresh-token family at login. */
export function issueRefreshToken(deps: Deps, userId: string): IssuedRefreshToken {
  return insertRefreshToken(deps, userId, newId("rtf", deps.clock.now()));
}

/**
 * Exchanges a refresh token for a new one of the same family. A token can be used once: a
 * second use means it was copied (by an attacker, or the owner after the attacker), and we
 * cannot tell which party holds the newest token, so the whole family is revoked and both
 * must log in again.
 */
export function rotateRefreshToken(deps: Deps, token: string): { userId: string; refresh: IssuedRefreshToken } {
  const now = deps.clock.now();
  const outcome = writeTransaction(deps.sqlite, () => {
    const row = deps.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(token))).get();
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    if (row.rotatedAt !== null) {
      deps.db.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt))).run();
      return "reused" as const;
    }
    deps.db.update(refreshTokens).set({ rotatedAt: now }).where(eq(refreshTokens.id, row.id)).run();
    return { userId: row.userId, refresh: insertRefreshToken(deps, row.userId, row.familyId) };
  });
  if (outcome === "reused") deps.log.error({ msg: "refresh token reused; family revoked" });
  if (outcome === null || outcome === "reused") throw invalidRefreshToken();
  return outcome;
}
