import { backgroundIntervalSeconds } from './policy';

/**
 * How long a change made outside the portal (a door panel, a resident's app) can stay unseen:
 * the promise the freshness note states. Pure, from the system's size and the settings.
 *
 * A re-read applies each reservation page as it arrives (lib/mirror/refresh.ts), so a change is
 * seen once the re-read after it reaches its page: at worst the change comes just after its page
 * was read, and is seen at the end of the next re-read. So the bound is the time between two
 * re-read starts plus one re-read's duration:
 *
 * - viewed: a re-read starts a freshness window after the last one ended, unless the request
 *   budget holds it back — it refills `budgetPerHour / 3600` a second and a re-read needs what the
 *   last one cost, so re-reads start at most every `requests / refill` seconds;
 *   bound = max(freshness + duration, requests × 3600 / budget) + duration.
 * - unviewed: the background worker re-reads a copy older than MIRROR_BACKGROUND_S, looking every
 *   tenth of that (at most every minute); bound = max(background + look + duration, budget interval)
 *   + duration. Without a background cadence (0) there is no bound (null).
 */
export interface FreshnessBoundInputs {
  /** Upstream requests one re-read costs (mirror_state.last_requests). */
  requestsPerReread: number;
  /** How long one re-read takes, in seconds (its end less its start). */
  rereadSeconds: number;
  /** MIRROR_REQUEST_BUDGET_PER_HOUR of the system; 0: no budget. */
  budgetPerHour: number;
  freshnessS: number;
  /** MIRROR_BACKGROUND_S; 0: no background re-reads. */
  backgroundS: number;
}

/** Seconds between two re-read starts that the budget allows at least (0 without a budget). */
export function budgetIntervalS(requestsPerReread: number, budgetPerHour: number): number {
  if (budgetPerHour <= 0) return 0;
  return (Math.max(0, requestsPerReread) * 3600) / budgetPerHour;
}

/** The longest an outside change stays unseen, in seconds (null: not bounded, no background re-reads). */
export function outsideChangeBoundS(inputs: FreshnessBoundInputs, viewed: boolean): number | null {
  const duration = Math.max(0, inputs.rereadSeconds);
  const budget = budgetIntervalS(inputs.requestsPerReread, inputs.budgetPerHour);
  if (viewed) return Math.max(inputs.freshnessS + duration, budget) + duration;
  if (inputs.backgroundS <= 0) return null;
  return Math.max(inputs.backgroundS + backgroundIntervalSeconds(inputs.backgroundS) + duration, budget) + duration;
}

/**
 * The largest number of reservations a system may hold for a viewed bound of `targetS` seconds,
 * given the page size (100), the requests a re-read makes besides the reservation pages, and the
 * duration of one page: what a budget buys.
 */
export function reservationsWithin(targetS: number, settings: { budgetPerHour: number; freshnessS: number; pageSeconds: number; otherRequests: number; pageSize?: number }): number {
  const pageSize = settings.pageSize ?? 100;
  let pages = 0;
  for (;;) {
    const requests = pages + 1 + settings.otherRequests;
    const bound = outsideChangeBoundS({ requestsPerReread: requests, rereadSeconds: requests * settings.pageSeconds, budgetPerHour: settings.budgetPerHour, freshnessS: settings.freshnessS, backgroundS: 0 }, true)!;
    if (bound > targetS || pages > 1_000_000) return pages * pageSize;
    pages += 1;
  }
}
