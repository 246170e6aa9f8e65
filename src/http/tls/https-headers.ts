/**
 * What every HTTPS response carries: Strict-Transport-Security (browsers then never try plain
 * HTTP for the host again), and `Secure` on any cookie so it never travels over plain HTTP.
 */
export function secureResponse(response: Response, hstsSeconds: number): Response {
  const cookies = response.headers.getSetCookie();
  const insecure = cookies.some((cookie) => !/;\s*secure\b/i.test(cookie));
  if (hstsSeconds === 0 && !insecure) return response;
  let target = response;
  try {
    applySecurity(target.headers, hstsSeconds, insecure ? cookies : null);
  } catch {
    // Immutable headers (Response.redirect, Response.error): copy into a response we own.
    target = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    });
    applySecurity(target.headers, hstsSeconds, insecure ? cookies : null);
  }
  return target;
}

function applySecurity(headers: Headers, hstsSeconds: number, cookies: string[] | null): void {
  if (hstsSeconds > 0) headers.set("strict-transport-security", `max-age=${hstsSeconds}`);
  if (!cookies) return;
  headers.delete("set-cookie");
  for (const cookie of cookies)
    headers.append("set-cookie", /;\s*secure\b/i.test(cookie) ? cookie : `${cookie}; Secure`);
}
