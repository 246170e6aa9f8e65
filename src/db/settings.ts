import type { Store } from "./store.ts";

/**
 * Returns the stored value of `key`, creating it with `make()` the first time. Insert-if-missing
 * then read: when two processes start together both read the one value that won.
 */
export async function getOrCreateSetting(store: Store, key: string, make: () => string): Promise<string> {
  await store.settings.insertSettingIfMissing(key, make());
  const value = await store.settings.findSetting(key);
  if (value === null) throw new Error(`setting ${key} vanished after insert`);
  return value;
}
