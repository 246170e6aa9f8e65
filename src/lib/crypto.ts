import { createHash, timingSafeEqual } from "node:crypto";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/**
 * Bun's own hasher: the same bytes as node:crypto's createHmac in 0.5 µs instead of 1.3 µs for a
 * webhook body, and every delivery signs twice (its body and the Standard Webhooks header).
 */
export const hmacSha256 = (secret: string | Uint8Array, text: string | Uint8Array): Buffer =>
  new Bun.CryptoHasher("sha256", secret).update(text).digest() as Buffer;

/** Equal-length strings compared without an early exit, so timing reveals nothing. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    // Still spend the comparison so length mismatch is not faster than a content mismatch.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random text from an alphabet of 62 without modulo bias: `length` characters of ~5.95 bits. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
