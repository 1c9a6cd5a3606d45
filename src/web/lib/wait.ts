// Waiting for a moment on the page's own clock.

/**
 * Resolves once `performance.now()` has reached `at`. A timer may fire a fraction of a millisecond
 * before the moment it was set for, as that clock tells it (browsers and Node alike keep their
 * timers on a coarser clock), so what is left is waited for again.
 */
export async function waitUntil(at: number): Promise<void> {
  for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, left));
  }
}
