/**
 * Idle kept-alive connections of the HTTP/1.1 client (src/lib/http1-client.ts), by key (address,
 * port, TLS, server name, CA). Bounded per key and overall, so tenants' receivers cannot make
 * it hold sockets without limit; a connection idle for `idleMs` is closed by an unref'd timer
 * (and never handed out past that age), so the pool holds nothing for long and keeps no
 * process alive.
 */

export interface PoolMember {
  readonly key: string;
  /** False once either side closed it. */
  open: boolean;
  idleSince: number;
  pooled: boolean;
}

export interface IdlePoolOptions<T extends PoolMember> {
  now: () => number;
  /** Below the 5 s keep-alive timeout common in servers, so we close first, not mid-request. */
  idleMs: number;
  maxPerKey: number;
  max: number;
  /** Parks a connection: it must not keep the process (or the send thread) alive while idle. */
  park(member: T): void;
  /** Takes a parked connection back into use. */
  unpark(member: T): void;
  /** Closes a connection the pool will not keep. */
  close(member: T): void;
}

export function createIdlePool<T extends PoolMember>(options: IdlePoolOptions<T>) {
  // Each key's list is oldest first: connections are pushed and taken at the end.
  const idle = new Map<string, T[]>();
  let total = 0;
  let sweepTimer: ReturnType<typeof setTimeout> | null = null;

  function remove(member: T): void {
    if (!member.pooled) return;
    member.pooled = false;
    const list = idle.get(member.key) ?? [];
    // take() removes the newest, the list's last: no search for it.
    if (list.at(-1) === member) list.pop();
    else list.splice(list.indexOf(member), 1);
    total--;
    if (list.length === 0) idle.delete(member.key);
  }

  /** Closes connections idle for idleMs or longer. */
  function sweep(): void {
    const cutoff = options.now() - options.idleMs;
    for (const list of [...idle.values()]) {
      for (const member of list.filter((pooled) => pooled.idleSince <= cutoff)) {
        remove(member);
        options.close(member);
      }
    }
  }

  function armSweep(): void {
    if (sweepTimer !== null || total === 0) return;
    sweepTimer = setTimeout(() => {
      sweepTimer = null;
      sweep();
      armSweep();
    }, options.idleMs);
    sweepTimer.unref();
  }

  return {
    /** Keeps a connection whose exchange ended cleanly, or closes it when the pool is full. */
    release(member: T): void {
      const list = idle.get(member.key) ?? [];
      if (!member.open || list.length >= options.maxPerKey || total >= options.max) return options.close(member);
      member.idleSince = options.now();
      member.pooled = true;
      options.park(member);
      if (list.length === 0) idle.set(member.key, list);
      list.push(member);
      total++;
      armSweep();
    },
    /** The most recently parked open connection for `key`, or null. */
    take(key: string): T | null {
      for (let member = idle.get(key)?.at(-1); member; member = idle.get(key)?.at(-1)) {
        remove(member);
        // Closed by the receiver while idle, or past the time the receiver may close it.
        if (member.open && options.now() - member.idleSince < options.idleMs) {
          options.unpark(member);
          return member;
        }
        options.close(member);
      }
      return null;
    },
    /** A connection that closed (or was closed) leaves the pool. */
    remove,
    sweep,
    size: (): number => total,
  };
}
