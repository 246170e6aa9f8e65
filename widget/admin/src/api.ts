/**
 * The admin page's only way to the server: same origin, with a person's access token (kept in
 * memory only; the refresh token is an HttpOnly cookie script never sees) or a tenant API key.
 */

const KEY_STORAGE = "parley.admin.apiKey";

let accessToken: string | null = null;
/** Signed in as a person on this page (until Sign out), even once the session has ended: it picks the 401's wording. */
let asPerson = false;
/** Not a secret: only whether a refresh cookie may exist, so a fresh page does not ask for one in vain (a 401 in the console). */
const SESSION_HINT = "parley.admin.signedIn";

/** A person's session: the access token lives in this variable, so a reload asks the refresh cookie for a new one. */
export const person = {
  signedIn: (): boolean => accessToken !== null,
  token: (): string | null => accessToken,
  async signIn(email: string, password: string): Promise<void> {
    accessToken = (await sessionCall<{ access_token: string }>("POST", "", { email, password })).access_token;
    asPerson = true;
    localStorage.setItem(SESSION_HINT, "1");
  },
  mayResume: (): boolean => localStorage.getItem(SESSION_HINT) === "1",
  /** A new access token from the refresh cookie; false when there is no session to resume. */
  async resume(): Promise<boolean> {
    try {
      accessToken = (await sessionCall<{ access_token: string }>("POST", "/refresh")).access_token;
      asPerson = true;
      return true;
    } catch {
      accessToken = null;
      localStorage.removeItem(SESSION_HINT);
      return false;
    }
  },
  async signOut(): Promise<void> {
    accessToken = null;
    asPerson = false;
    localStorage.removeItem(SESSION_HINT);
    await sessionCall("DELETE", "").catch(() => undefined);
  },
};

/** The cookie endpoints: the only calls that send cookies (the refresh cookie's path is theirs alone). */
async function sessionCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/auth/session${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check the connection and try again.");
  }
  const parsed = (await response.json().catch(() => null)) as (T & { error?: string; message?: string }) | null;
  if (!response.ok)
    throw new ApiError(
      response.status,
      response.status === 401 && body !== undefined
        ? "E-mail or password is wrong."
        : explain(response, parsed).message,
    );
  return parsed as T;
}

/** The credential headers of every API call: a person in several tenants names the chosen one. */
export function credentials(): Record<string, string> {
  if (!accessToken) return { "x-api-key": apiKey.get() ?? "" };
  const chosen = tenant.get();
  return chosen
    ? { authorization: `Bearer ${accessToken}`, "x-tenant-id": chosen }
    : { authorization: `Bearer ${accessToken}` };
}

const TENANT_STORAGE = "parley.admin.tenant";

/** The tenant a person in several tenants works on in this tab (sessionStorage: survives a reload, not the tab). */
export const tenant = {
  get: (): string | null => sessionStorage.getItem(TENANT_STORAGE),
  set: (tenantId: string | null): void =>
    tenantId ? sessionStorage.setItem(TENANT_STORAGE, tenantId) : sessionStorage.removeItem(TENANT_STORAGE),
};

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

function explain(
  response: Response,
  body: { error?: string; message?: string; details?: FieldError[] } | null,
): ApiError {
  const status = response.status;
  if (status === 401 && asPerson) return new ApiError(status, "Your session has ended: sign out and sign in again.");
  if (status === 401)
    return new ApiError(status, "The API key is invalid or revoked. Sign out and sign in with a valid key.");
  if (status === 429) {
    const wait = response.headers.get("retry-after");
    return new ApiError(status, `Too many requests: try again in ${wait ?? "a few"} second${wait === "1" ? "" : "s"}.`);
  }
  const message = body?.message ?? `The server answered HTTP ${status}.`;
  return new ApiError(status, body?.error ? `${message} (${body.error})` : message, body?.details ?? []);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response = await send(method, path, body);
  // An access token lives 15 minutes: a person's session renews it from the cookie and tries once more.
  if (response.status === 401 && accessToken && (await person.resume())) response = await send(method, path, body);
  const parsed = (await response.json().catch(() => null)) as T | null;
  if (!response.ok)
    throw explain(response, parsed as { error?: string; message?: string; details?: FieldError[] } | null);
  return parsed as T;
}

/** A query string from the set values only. */
export function query(params: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A body is JSON, except a file (a PDF upload), which is sent as it is, with its own type. */
async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = credentials();
  const file = body instanceof Blob ? body : null;
  if (body !== undefined) headers["content-type"] = file ? file.type || "application/octet-stream" : "application/json";
  try {
    return await fetch(`/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : (file ?? JSON.stringify(body)),
      credentials: "omit",
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check the connection and try again.");
  }
}
