/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs` with the last seen state. */
export async function waitFor<T>(check: () => Promise<T | undefined>, options: { timeoutMs?: number; intervalMs?: number; describe?: () => Promise<unknown> } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const state = options.describe === undefined ? '' : ` (last state: ${JSON.stringify(await options.describe())})`;
      throw new Error(`condition not met within ${options.timeoutMs ?? 60_000} ms${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
}
