import { z } from 'zod';

/** Injected faults; PUT /_sandbox/faults replaces the whole set. */
export const faultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    latencyJitterMs: z.number().int().min(0).max(120_000).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    throttle: z.object({ rate: z.number().min(0).max(1), retryAfterSeconds: z.number().int().min(0).max(3600) }).strict().optional(),
    failures: z
      .array(
        z
          .object({
            status: z.number().int().min(400).max(599),
            times: z.number().int().min(1),
            skip: z.number().int().min(0).optional(),
            pathPrefix: z.string().optional(),
            method: z.string().optional(),
            retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
          })
          .strict(),
      )
      .max(50)
      .optional(),
    hang: z.object({ ms: z.number().int().min(0).max(600_000), pathPrefix: z.string().optional() }).strict().optional(),
    tokenEndpointDown: z.boolean().optional(),
    webhook: z
      .object({ delayMs: z.number().int().min(0).max(3_600_000).optional(), duplicate: z.boolean().optional(), reorder: z.boolean().optional() })
      .strict()
      .optional(),
  })
  .strict();
export type Faults = z.infer<typeof faultsSchema>;

interface FailureCounter { seen: number }

/** Decides, per request, which injected fault applies. */
export class FaultState {
  faults: Faults = {};
  private counters: FailureCounter[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  set(faults: Faults): void {
    this.faults = faults;
    this.counters = (faults.failures ?? []).map(() => ({ seen: 0 }));
  }

  clear(): void {
    this.set({});
  }

  latency(): number {
    const base = this.faults.latencyMs ?? 0;
    const jitter = this.faults.latencyJitterMs ?? 0;
    return base + (jitter > 0 ? Math.floor(this.random() * (jitter + 1)) : 0);
  }

  hangMs(path: string): number {
    const hang = this.faults.hang;
    if (!hang || (hang.pathPrefix && !path.startsWith(hang.pathPrefix))) return 0;
    return hang.ms;
  }

  /** A status (and Retry-After) to answer instead of the real response, if any. */
  injectedFailure(method: string, path: string, isToken: boolean): { status: number; retryAfter?: number } | undefined {
    if (isToken && this.faults.tokenEndpointDown) return { status: 503 };
    const failures = this.faults.failures ?? [];
    for (let i = 0; i < failures.length; i++) {
      const f = failures[i]!;
      if (f.method && f.method.toUpperCase() !== method.toUpperCase()) continue;
      if (f.pathPrefix && !path.startsWith(f.pathPrefix)) continue;
      const counter = this.counters[i]!;
      const n = counter.seen++;
      const skip = f.skip ?? 0;
      if (n >= skip && n < skip + f.times) return { status: f.status, retryAfter: f.retryAfterSeconds };
    }
    if (isToken) return undefined;
    const throttle = this.faults.throttle;
    if (throttle && this.random() < throttle.rate) return { status: 429, retryAfter: throttle.retryAfterSeconds };
    if (this.faults.errorRate && this.random() < this.faults.errorRate) return { status: 503 };
    return undefined;
  }
}
