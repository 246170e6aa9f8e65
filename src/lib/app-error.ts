/**
 * The one error type domain code throws. `code` is the snake_case `error` field of the JSON
 * body, `status` the HTTP status; src/http/errors.ts is the only place that turns it into a
 * response, and the CLI prints `message` as its one line on stderr.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string): AppError =>
  new AppError(`${what}_not_found`, 404, `No such ${what.replaceAll("_", " ")}.`);
