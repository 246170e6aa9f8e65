import type { Socket, SocketHandler } from "bun";
import {
  endResponse,
  feedResponse,
  Http1Error,
  responseExcerpt,
  startResponse,
  type ResponseRead,
} from "./http1-response.ts";
import { createIdlePool, type PoolMember } from "./http1-pool.ts";
import { requestText, type Http1Request } from "./http1-request.ts";
import { unwatchAbort, watchAbort } from "./abort-watch.ts";

/**
 * One POST over HTTP/1.1 on Bun.connect, plain or TLS, to a given address with a given Host
 * header and TLS server name, over kept-alive connections. Made for webhook sends: a keep-alive
 * exchange here costs about a third of Bun's fetch in CPU (docs/design-notes.md), and since
 * it dials the address it is given, an SSRF-checked address needs no URL rewriting.
 *
 * Only the status and the first `excerptBytes` of the body are read; a longer body closes the
 * connection instead of being drained. No Accept-Encoding is sent, so bodies come uncompressed.
 */

export interface Http1Target {
  /** The address to connect to: a checked IP, or with no rules to check, the URL's host. */
  hostname: string;
  port: number;
  tls: boolean;
  /** TLS server name and the name the certificate must carry; unset, the certificate must name `hostname`. */
  serverName?: string;
  /** Extra trusted CA certificates (PEM), for tests' receivers. */
  ca?: string[];
}

export interface Http1Post extends Http1Request {
  target: Http1Target;
  /** Covers connecting, TLS, writing and reading; on abort the socket is destroyed. */
  signal: AbortSignal;
  /** Called with the final status as soon as its head is read, before the body. */
  onStatus?: (status: number) => void;
}

export interface Http1Answer {
  status: number;
  excerpt: string;
}

export interface Http1ClientOptions {
  excerptBytes: number;
  /**
   * Tests: where a target's connection really goes (a loopback receiver standing in for a
   * public address), to see what a sender dials without a network.
   */
  route?: (target: Http1Target) => { hostname: string; port: number };
  /** The clock idle connections are aged by (tests inject a fake one and call sweep()). */
  now?: () => number;
  /** How long a connection may stay idle (src/lib/http1-pool.ts). */
  idleMs?: number;
  maxIdlePerKey?: number;
  maxIdle?: number;
}

interface Exchange {
  read: ResponseRead;
  /** Any response byte arrived: past that point the request is never sent again. */
  answered: boolean;
  statusSeen: boolean;
  onStatus: ((status: number) => void) | undefined;
  settle(error: unknown): void;
}

interface Connection extends PoolMember {
  tls: boolean;
  socket: Socket<Connection> | null;
  /** Takes the connection out of its client's pool once it closed. */
  forget(connection: Connection): void;
  exchange: Exchange | null;
  /** Request bytes the socket did not take yet; written on drain. */
  unwritten: Uint8Array | null;
  ready: ((error: Error | null) => void) | null;
}

const handlers: SocketHandler<Connection> = {
  open(socket) {
    socket.data.socket = socket;
    if (!socket.data.tls) socket.data.ready?.(null);
  },
  handshake(socket, success, authorizationError) {
    if (success) socket.data.ready?.(null);
    else {
      socket.data.ready?.(authorizationError ?? new Http1Error("tls_failed", "TLS handshake failed"));
      socket.terminate();
    }
  },
  connectError(socket, error) {
    socket.data.ready?.(error);
  },
  data(socket, bytes) {
    const exchange = socket.data.exchange;
    // Bytes on an idle connection answer nothing we asked: the connection is not trusted again.
    if (!exchange) return socket.terminate();
    exchange.answered = true;
    let done: boolean;
    try {
      done = feedResponse(exchange.read, bytes);
    } catch (error) {
      return exchange.settle(error);
    }
    const status = exchange.read.status;
    if (status !== null && !exchange.statusSeen) {
      exchange.statusSeen = true;
      exchange.onStatus?.(status);
    }
    if (done) exchange.settle(null);
  },
  drain(socket) {
    const connection = socket.data;
    if (!connection.unwritten) return;
    const written = socket.write(connection.unwritten);
    connection.unwritten = written >= connection.unwritten.byteLength ? null : connection.unwritten.subarray(written);
  },
  error(socket, error) {
    const exchange = socket.data.exchange;
    exchange?.settle(closedUnanswered(exchange, error));
  },
  close(socket, error) {
    const connection = socket.data;
    connection.open = false;
    connection.forget(connection);
    connection.ready?.(error ?? new Http1Error("connection_closed", "the connection closed while opening"));
    const exchange = connection.exchange;
    if (!exchange) return;
    try {
      if (endResponse(exchange.read)) return exchange.settle(null);
    } catch (ended) {
      // Mid-answer, what was cut short says more than the socket's error.
      exchange.settle(closedUnanswered(exchange, exchange.answered || !error ? ended : error));
    }
  },
};

export function createHttp1Client(options: Http1ClientOptions) {
  let opened = 0;
  const pool = createIdlePool<Connection>({
    now: options.now ?? (() => performance.now()),
    idleMs: options.idleMs ?? 4_000,
    maxPerKey: options.maxIdlePerKey ?? 512,
    max: options.maxIdle ?? 2_048,
    park: (connection) => connection.socket?.unref(),
    unpark: (connection) => connection.socket?.ref(),
    close: (connection) => {
      connection.open = false;
      connection.socket?.end();
    },
  });

  function destroy(connection: Connection): void {
    connection.open = false;
    pool.remove(connection);
    connection.socket?.terminate();
  }

  function connect(target: Http1Target, key: string, signal: AbortSignal): Promise<Connection> {
    const connection: Connection = {
      key,
      tls: target.tls,
      socket: null,
      open: true,
      idleSince: 0,
      pooled: false,
      forget: pool.remove,
      exchange: null,
      unwritten: null,
      ready: null,
    };
    opened++;
    return new Promise<Connection>((resolve, reject) => {
      const onAbort = (): void => connection.ready?.(signal.reason);
      connection.ready = (error) => {
        connection.ready = null;
        signal.removeEventListener("abort", onAbort);
        if (error === null) return resolve(connection);
        destroy(connection);
        reject(error);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const tls = target.tls ? { tls: { serverName: target.serverName, ca: target.ca, rejectUnauthorized: true } } : {};
      const { hostname, port } = options.route?.(target) ?? target;
      Bun.connect<Connection>({
        hostname,
        port,
        data: connection,
        socket: handlers,
        ...tls,
      })
        .then((socket) => {
          connection.socket = socket;
          // Aborted while connecting: the socket arrived after its request gave up.
          if (!connection.open) socket.terminate();
        })
        .catch((error: unknown) => connection.ready?.(error instanceof Error ? error : new Error(String(error))));
    });
  }

  function exchange(connection: Connection, post: Http1Post, request: { text: string; bytes: number }) {
    return new Promise<Http1Answer>((resolve, reject) => {
      const read = startResponse(options.excerptBytes);
      const current: Exchange = {
        read,
        answered: false,
        statusSeen: false,
        onStatus: post.onStatus,
        settle(error) {
          if (connection.exchange !== current) return;
          connection.exchange = null;
          unwatchAbort(post.signal, current);
          if (error !== null) {
            destroy(connection);
            return reject(error);
          }
          // An answer that came before the whole request was written leaves the connection mid-request.
          if (read.reusable && connection.unwritten === null) pool.release(connection);
          else destroy(connection);
          resolve({ status: read.status ?? 0, excerpt: responseExcerpt(read) });
        },
      };
      connection.exchange = current;
      watchAbort(post.signal, current);
      const written = connection.socket?.write(request.text) ?? -1;
      if (written >= 0 && written < request.bytes) connection.unwritten = Buffer.from(request.text).subarray(written);
    });
  }

  return {
    /**
     * Sends the POST and reads the answer. A kept-alive connection can be closed by the
     * receiver just as it is reused; if it closes before any byte of an answer, the request
     * goes once more on a new connection. The receiver may then have had it twice: webhooks
     * are at-least-once and receivers dedupe by `webhook-id`.
     */
    async post(post: Http1Post): Promise<Http1Answer> {
      const request = requestText(post);
      const { target } = post;
      const key = `${target.tls ? "https" : "http"} ${target.hostname} ${target.port} ${target.serverName ?? ""} ${target.ca?.join("") ?? ""}`;
      if (post.signal.aborted) throw post.signal.reason;
      const pooled = pool.take(key);
      if (pooled) {
        try {
          return await exchange(pooled, post, request);
        } catch (error) {
          if (!(error instanceof Unanswered) || post.signal.aborted) throw unwrap(error);
        }
      }
      try {
        return await exchange(await connect(target, key, post.signal), post, request);
      } catch (error) {
        throw unwrap(error);
      }
    },
    /** Closes idle connections past their time (the timer does this; tests call it with a fake clock). */
    sweep: pool.sweep,
    idleConnections: pool.size,
    /** Connections opened so far (tests: reuse). */
    connectionsOpened: (): number => opened,
  };
}

export type Http1Client = ReturnType<typeof createHttp1Client>;

/** A failure before any answer byte: the request may be sent again on a fresh connection. */
class Unanswered extends Error {
  constructor(readonly reason: unknown) {
    super("no answer");
  }
}

// How a receiver's close shows before any answer byte: an end of stream, a reset, a broken pipe.
const CLOSED_CODES = new Set(["ECONNRESET", "EPIPE"]);

/** The connection closed (by EOF or a reset) before any answer byte: the request may go again. */
function closedUnanswered(exchange: Exchange, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const closed = error instanceof Http1Error ? code === "connection_closed" : CLOSED_CODES.has(String(code));
  return closed && !exchange.answered ? new Unanswered(error) : error;
}
const unwrap = (error: unknown): unknown => (error instanceof Unanswered ? error.reason : error);
