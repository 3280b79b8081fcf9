/** `work`, or a rejection once `ms` have passed without it settling (health and readiness checks). */
export function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}

/** An error's message for an operator-facing sentence. */
export const errorMessageOf = (error: unknown): string => (error instanceof Error ? error.message : 'unknown error');
