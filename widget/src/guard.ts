/** Errors go to the console, never into the host page: one bad fetch must not break their site. */
export function report(error: unknown): void {
  try {
    console.warn("[parley]", error);
  } catch {
    // A host that replaced console with something that throws still must not see our errors.
  }
}

/** Wraps an entry point (event handler, timer, public method) so nothing it throws escapes. */
export function guard<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => void {
  return (...args) => {
    try {
      const result = fn(...args);
      if (result instanceof Promise) result.catch(report);
    } catch (error) {
      report(error);
    }
  };
}
