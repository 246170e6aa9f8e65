import { Http1Error } from "./http1-response.ts";

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, space and tab: no CR or LF that could end the header early and inject others.
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
// Framing is this client's: a caller's copy of these would contradict it.
const OWN_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "expect"]);

export interface Http1Request {
  /** The Host header: the URL's host, with its port when not the scheme's default. */
  host: string;
  /** The request target: path and query. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The bytes of one POST: request line, Host, the caller's headers, Content-Length, body. */
export function requestText(post: Http1Request): {
  text: string;
  bytes: number;
} {
  let head = `POST ${post.path} HTTP/1.1\r\nhost: ${post.host}\r\n`;
  for (const [name, value] of Object.entries(post.headers)) {
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) {
      throw new Http1Error("invalid_header", `header ${JSON.stringify(name)} has a name or value HTTP cannot carry`);
    }
    if (!OWN_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  if (!HEADER_VALUE.test(post.host) || !post.path.startsWith("/") || /\s/.test(post.path))
    throw new Http1Error("invalid_header", "bad host or path");
  const bodyBytes = Buffer.byteLength(post.body);
  head += `content-length: ${bodyBytes}\r\n\r\n`;
  // The head is ASCII (checked above; the path comes URL-encoded), so its length is its size.
  return { text: head + post.body, bytes: head.length + bodyBytes };
}
