/**
 * Waits until `check` passes (returns without throwing and not `false`), polling every few milliseconds;
 * rejects with the last failure after `timeoutMs`. For waiting on an effect across HTTP without fixed sleeps.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5_000,
  intervalMs = 5,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const result = await check();
      if (result !== false) return result;
      failure = new Error('condition returned false');
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
