import { MAX_PDF_BYTES } from "../knowledge/pdf-text.ts";

/**
 * Larger bodies are cut off by Bun before they reach the app. It must let the largest upload
 * through (a 10 MB PDF); every route then enforces its own cap while reading (64 KiB of JSON,
 * src/http/body.ts), answering JSON 413, so a big body costs no more than its first 64 KiB.
 */
const SERVER_BODY_LIMIT = MAX_PDF_BYTES + 64 * 1024;

/** What Bun.serve is given besides the address (src/cli/serve.ts; bench/chat-lib.ts serves with the same). */
export const SERVE_OPTIONS = {
  maxRequestBodySize: SERVER_BODY_LIMIT,
  // Elysia turns SO_REUSEPORT on; then a second process on the same port starts too and the
  // kernel splits the traffic between them. One port, one server.
  reusePort: false,
  // Elysia asks Bun for development mode unless NODE_ENV=production. It adds error pages the
  // app never shows (Elysia answers every error itself) and costs main-thread time on every
  // request (docs/hot-path.md).
  development: false,
} as const;
