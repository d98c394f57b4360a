/**
 * The one rule for looking up a name that came from outside (a path segment, a query or body key,
 * a header, a character of a username) in a plain object: only the object's own entries count,
 * never those of its prototype (`constructor`, `__proto__`, `toString`, ...), which would answer a
 * function where a table entry was meant.
 */

/** Whether `obj` has an entry of its own named `key`. */
export function hasOwnKey(obj: object, key: string): boolean {
  return Object.hasOwn(obj, key)
}

/** The entry of its own that `obj` holds under `key`, else undefined. */
export function ownValue<T>(obj: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return obj !== undefined && Object.hasOwn(obj, key) ? obj[key] : undefined
}
