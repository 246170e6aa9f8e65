/** The admin page's only way to the server: same origin, the API key in X-API-Key. */

const KEY_STORAGE = "parley.admin.apiKey";

/** The key lives in sessionStorage only: it dies with the tab and never reaches a cookie or the URL. */
export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_STORAGE),
  set: (key: string): void => sessionStorage.setItem(KEY_STORAGE, key),
  clear: (): void => sessionStorage.removeItem(KEY_STORAGE),
};

export interface FieldError {
  field: string;
  message: string;
}

/** Every failed call, with a message written for the administrator. Status 0 is the network. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
  }
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

function explain(response: Response, body: { error?: string; message?: string; details?: FieldError[] } | null): ApiError {
  const status = response.status;
  if (status === 401) return new ApiError(status, "The API key is invalid or revoked. Sign out and sign in with a valid key.");
  if (status === 429) {
    const wait = response.headers.get("retry-after");
    return new ApiError(status, `Too many requests: try again in ${wait ?? "a few"} second${wait === "1" ? "" : "s"}.`);
  }
  const message = body?.message ?? `The server answered HTTP ${status}.`;
  return new ApiError(status, body?.error ? `${message} (${body.error})` : message, body?.details ?? []);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "x-api-key": apiKey.get() ?? "" };
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store" });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check the connection and try again.");
  }
  const parsed = (await response.json().catch(() => null)) as T | null;
  if (!response.ok) throw explain(response, parsed as { error?: string; message?: string; details?: FieldError[] } | null);
  return parsed as T;
}

/** A query string from the set values only. */
export function query(params: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}
