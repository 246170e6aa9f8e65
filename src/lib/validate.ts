import { AppError } from "./app-error.ts";

/** A 422 naming the field, in the same shape the HTTP schema validation produces. */
export function invalidField(field: string, message: string): AppError {
  return new AppError("validation_failed", 422, `${field}: ${message}`, [{ field, message }]);
}

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is the mail
// server's business; this only catches typos.
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function normalizeEmail(email: string): string | null {
  const trimmed = email.trim().toLowerCase();
  return trimmed.length <= 254 && EMAIL_PATTERN.test(trimmed) ? trimmed : null;
}
