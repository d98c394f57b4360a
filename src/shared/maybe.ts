/**
 * A value now or a promise of it. Hot paths answer from caches synchronously and return a
 * promise only when they must wait: every promise and `await` costs a microtask turn and an
 * allocation per request. A function that returns a Maybe may also throw synchronously.
 */
export type Maybe<T> = T | Promise<T>

/** `f` of the value, at once when there is one, after it when it is a promise. */
export function then<T, R>(value: Maybe<T>, f: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(f) : f(value)
}
