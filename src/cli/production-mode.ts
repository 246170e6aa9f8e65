/**
 * Imported first by every entry point, before anything loads Elysia: Elysia decides once, when
 * it loads, whether it runs in production mode, and outside it a validation failure
 * pretty-prints the whole offending body into its message (20 ms of the one JavaScript thread
 * for a 64 KiB body of nested arrays, against 2 ms). Parley is always in production mode,
 * whatever NODE_ENV the environment had.
 */
process.env.NODE_ENV = "production";
