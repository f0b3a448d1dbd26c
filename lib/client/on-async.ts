/**
 * An event handler (or a callback prop typed to return nothing) from an async function: React
 * and the components ignore what a handler returns, so a rejection would go unhandled. Our
 * handlers show their own errors; anything that still escapes is logged, never lost
 * (`@typescript-eslint/no-misused-promises`, npm run lint:eslint). `fn` starts at once, in
 * the event's own dispatch: its `preventDefault()` still counts.
 */
export function onAsync<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => void {
  return (...args) => {
    try {
      Promise.resolve(fn(...args)).catch(logEscaped);
    } catch (err) {
      logEscaped(err);
    }
  };
}

function logEscaped(err: unknown): void {
  console.error(err);
}
