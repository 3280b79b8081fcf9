import type { RequestView } from '@/lib/events/types';

/** How long a request's pending state stays on screen at least, so that it can be read. */
export const MIN_PENDING_MS = 1_500;

/** How many outcomes that overtook their request's 202 are remembered. */
const EARLY_KEPT = 50;

type Later = (run: () => void, ms: number) => () => void;

const isOpen = (r: RequestView) => r.status === 'sending' || r.status === 'pending';

/**
 * Holds back a request's outcome on this tab until its pending state has been on screen for
 * `minMs`: the sandbox (and often the service) answers within milliseconds, and a "Pending" that
 * flashes by cannot be read. Only what the page shows waits: the outcome is stored and announced
 * by the server at once, and an outcome of a request this tab never showed pending passes at once.
 */
export class PendingHold {
  private readonly shownAt = new Map<string, number>();
  private readonly held = new Map<string, { request: RequestView; cancel: () => void }>();
  /** Outcomes passed on before this tab showed their request pending (the event overtook the 202). */
  private readonly early = new Map<string, RequestView>();

  constructor(
    private readonly deliver: (request: RequestView) => void,
    private readonly options: { minMs?: number; now?: () => number; later?: Later } = {},
  ) {}

  push(request: RequestView): void {
    const now = this.options.now?.() ?? Date.now();
    const held = this.held.get(request.id);
    if (isOpen(request)) {
      // An outcome is already waiting: an older open state must not overtake it.
      if (held) return;
      if (!this.shownAt.has(request.id)) this.shownAt.set(request.id, now);
      this.deliver(request);
      // The outcome came first (a fast service answers before the 202 is read): tell it again after
      // the pending state has been shown, for the places that take the request only from its 202 on.
      const early = this.early.get(request.id);
      if (early) {
        this.early.delete(request.id);
        this.push(early);
      }
      return;
    }
    const since = this.shownAt.get(request.id);
    const wait = since === undefined ? 0 : since + (this.options.minMs ?? MIN_PENDING_MS) - now;
    if (held) {
      // A later word on the same outcome replaces the held one; the timer stays.
      held.request = request;
      return;
    }
    if (wait <= 0) {
      if (since === undefined) this.rememberEarly(request);
      this.shownAt.delete(request.id);
      this.deliver(request);
      return;
    }
    const entry = {
      request,
      cancel: this.later(() => {
        this.held.delete(request.id);
        this.shownAt.delete(request.id);
        this.deliver(entry.request);
      }, wait),
    };
    this.held.set(request.id, entry);
  }

  private rememberEarly(request: RequestView): void {
    this.early.set(request.id, request);
    // A few are enough: only a 202 still on its way can ask for one.
    for (const id of this.early.keys()) {
      if (this.early.size <= EARLY_KEPT) break;
      this.early.delete(id);
    }
  }

  /**
   * This tab's own answer (the 202 of its Book or Cancel). The answer may already carry the outcome
   * (a fast service answers before the portal replies): the tab then shows the request pending
   * first — a copy of it, on this tab only — and the outcome `minMs` later.
   */
  pushOwn(request: RequestView): void {
    if (isOpen(request)) {
      // Shown from now on, also where the live event of its pending state was passed over (the
      // places that take it only from its 202 on): the minimum counts from this answer.
      this.shownAt.set(request.id, this.options.now?.() ?? Date.now());
      this.push(request);
      return;
    }
    // An outcome already held (its live event came first) starts again from this answer.
    const held = this.held.get(request.id);
    held?.cancel();
    this.held.delete(request.id);
    this.early.delete(request.id);
    this.shownAt.set(request.id, this.options.now?.() ?? Date.now());
    this.deliver({ ...request, status: 'pending', outcomeUnknown: false, errorCode: null, errorDescription: null, resolvedAt: null, reason: null });
    this.push(request);
  }

  /** Stops every timer (the page is leaving); held outcomes are dropped with it. */
  dispose(): void {
    for (const entry of this.held.values()) entry.cancel();
    this.held.clear();
    this.shownAt.clear();
    this.early.clear();
  }

  private later(run: () => void, ms: number): () => void {
    if (this.options.later) return this.options.later(run, ms);
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  }
}
