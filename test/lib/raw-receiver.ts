import type { Socket } from "bun";

/**
 * A loopback HTTP/1.1 receiver on a raw socket, for client tests: it parses each request (head
 * and content-length body) and lets the test answer with whatever bytes it likes, or none.
 */

export interface ReceivedRequest {
  head: string;
  body: string;
}

export interface RawConnection {
  index: number;
  requests: ReceivedRequest[];
  closed: boolean;
  buffered: string;
}

export type Answer = (request: ReceivedRequest, socket: Socket<RawConnection>) => void;

export interface RawReceiver {
  port: number;
  connections: RawConnection[];
  requests: () => ReceivedRequest[];
  stop(): void;
}

export function startRawReceiver(answer: Answer, tls?: { cert: string; key: string }): RawReceiver {
  const connections: RawConnection[] = [];
  const listener = Bun.listen<RawConnection>({
    hostname: "127.0.0.1",
    port: 0,
    ...(tls ? { tls } : {}),
    socket: {
      open(socket) {
        socket.data = { index: connections.length, requests: [], closed: false, buffered: "" };
        connections.push(socket.data);
      },
      data(socket, data) {
        const connection = socket.data;
        connection.buffered += data.toString("latin1");
        for (;;) {
          const end = connection.buffered.indexOf("\r\n\r\n");
          if (end < 0) return;
          const head = connection.buffered.slice(0, end);
          const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (connection.buffered.length < end + 4 + length) return;
          const body = Buffer.from(connection.buffered.slice(end + 4, end + 4 + length), "latin1").toString("utf8");
          connection.buffered = connection.buffered.slice(end + 4 + length);
          const request = { head, body };
          connection.requests.push(request);
          answer(request, socket);
        }
      },
      close(socket) {
        // A TLS handshake that failed closes a socket that never opened.
        if (socket.data) socket.data.closed = true;
      },
    },
  });
  return {
    port: listener.port,
    connections,
    requests: () => connections.flatMap((connection) => connection.requests),
    stop: () => listener.stop(true),
  };
}

/** Waits (real socket I/O, polled every millisecond, at most `ms`) until `condition` holds. */
export async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > ms) throw new Error("condition not met in time");
    await Bun.sleep(1);
  }
}

export const ok = (body = "ok", extra = "") =>
  `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body}`;
