import { expect, test } from "bun:test";
import type { Server } from "bun";
import { clientIp } from "../../src/http/plugins/client-ip.ts";

// The client address is asked for several times per request (credential guard, rate limits,
// the visitor allowance); Bun is asked once per request, and the proxy setting is respected.

function fakeServer(address: string) {
  let calls = 0;
  const server = { requestIP: () => (calls++, { address, family: "IPv4", port: 1234 }) } as unknown as Server<unknown>;
  return { server, calls: () => calls };
}

test("Bun is asked for a request's address once, however often the request is asked about", () => {
  const { server, calls } = fakeServer("203.0.113.7");
  const request = new Request("http://localhost/api/v1/chatbot/message", {
    headers: { "x-forwarded-for": "198.51.100.1, 192.0.2.9" },
  });
  expect([
    clientIp(request, server, false),
    clientIp(request, server, false),
    clientIp(request, server, false),
  ]).toEqual(["203.0.113.7", "203.0.113.7", "203.0.113.7"]);
  expect(calls()).toBe(1);
  // Another request is another answer.
  expect(clientIp(new Request("http://localhost/"), server, false)).toBe("203.0.113.7");
  expect(calls()).toBe(2);
});

test("behind a trusted proxy the right-most forwarded entry is the address, kept apart from the untrusted answer", () => {
  const { server } = fakeServer("203.0.113.7");
  const request = new Request("http://localhost/", { headers: { "x-forwarded-for": "198.51.100.1, 192.0.2.9" } });
  expect(clientIp(request, server, true)).toBe("192.0.2.9");
  expect(clientIp(request, server, false)).toBe("203.0.113.7");
  expect(clientIp(request, server, true)).toBe("192.0.2.9");
});
