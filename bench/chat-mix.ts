/**
 * The chat benchmarks' load (bench/chat.ts, bench/chat-pg.ts): what visitors send, the
 * sessions they send it in, and the requests a load generator makes of them.
 */
import type { ChatServer, LoadRequest } from "./chat-lib.ts";

/** Sessions are opened this many at a time. */
export const SESSION_CONCURRENCY = 32;

/**
 * What visitors of a dental clinic send, with weights out of 100: mostly FAQ questions and
 * greetings, now and then a full lead sentence (name, phone, e-mail).
 */
const MESSAGE_MIX: readonly (readonly [string, number])[] = [
  ["What are your opening hours?", 14],
  ["Do you take insurance?", 10],
  ["Hi there!", 8],
  ["Hello", 6],
  ["Where can I park?", 8],
  ["How much does a cleaning cost?", 8],
  ["Do you offer teeth whitening?", 7],
  ["Are you open on Saturday?", 7],
  ["Do you accept Delta Dental?", 6],
  ["Are you accepting new patients?", 6],
  ["Do you offer payment plans?", 5],
  ["I have a toothache, do you see emergencies?", 5],
  ["Thanks!", 5],
  ["I'm Ana Lopez, (415) 555-0132, ana@example.com", 5],
];

/** A fixed schedule of 97 messages (prime, so session i does not always get the same one). */
export function buildSchedule(): string[] {
  const pool = MESSAGE_MIX.flatMap(([text, weight]) => Array.from({ length: weight }, () => text));
  // A deterministic shuffle (LCG) so runs are comparable.
  let seed = 12345;
  for (let i = pool.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, 97);
}

export async function openSessions(server: ChatServer, count: number): Promise<string[]> {
  const tokens: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      const response = await fetch(`${server.base}/api/v1/widget/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tenant_id: server.tenantId }),
      });
      if (response.status !== 201) throw new Error(`widget session: ${response.status} ${await response.text()}`);
      tokens.push(((await response.json()) as { access_token: string }).access_token);
    }
  };
  await Promise.all(Array.from({ length: SESSION_CONCURRENCY }, lane));
  return tokens;
}

/**
 * Request k goes to session k mod N with schedule[k mod 97]. Each route keeps its own count
 * across phases, so a session's conversation goes on where the last chat phase left it
 * (restarting it would repeat the lead sentence twice in a row: two turns the bot does not
 * understand, and the session would be handed off to a human).
 */
export function requestMaker(
  server: ChatServer,
  tokens: readonly string[],
  schedule: readonly string[],
): () => () => LoadRequest {
  const bodies = new Map(schedule.map((text) => [text, JSON.stringify({ tenant_id: server.tenantId, message: text })]));
  const headers = tokens.map((token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` }));
  return () => {
    let sent = 0;
    return (): LoadRequest => {
      const k = sent++;
      return {
        headers: headers[k % headers.length] as Record<string, string>,
        body: bodies.get(schedule[k % schedule.length] as string) as string,
      };
    };
  };
}
