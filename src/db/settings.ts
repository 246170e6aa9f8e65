import type { Store } from "./store.ts";

/** Insert-if-missing then read: two processes starting together both read the value that won. */
export async function getOrCreateSetting(store: Store, key: string, make: () => string): Promise<string> {
  await store.settings.insertSettingIfMissing(key, make());
  const value = await store.settings.findSetting(key);
  if (value === null) throw new Error(`setting ${key} vanished after insert`);
  return value;
}
