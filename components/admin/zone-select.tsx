'use client';

import { useSyncExternalStore } from 'react';

/** The browser's own zone, after hydration (null on the server, so the first render matches). */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || null;
const noSubscription = () => () => {};

/**
 * A system's time zone: the likely ones first (its current zone, Europe/Stockholm, the browser's),
 * then every other zone this runtime knows. Each zone once, so a label finds one option.
 */
export function ZoneSelect(props: { id: string; name: string; current: string; zones: readonly string[]; likelyLabel: string; allLabel: string; ariaLabel: string; describedBy?: string; className: string }) {
  const browser = useSyncExternalStore(noSubscription, browserZone, () => null);
  const likely = [...new Set([props.current, 'Europe/Stockholm', ...(browser && props.zones.includes(browser) ? [browser] : [])])];
  const rest = props.zones.filter((z) => !likely.includes(z));
  const option = (z: string) => (
    <option key={z} value={z}>
      {z.replaceAll('_', ' ')}
    </option>
  );
  return (
    <select id={props.id} name={props.name} defaultValue={props.current} required className={props.className} aria-label={props.ariaLabel} aria-describedby={props.describedBy}>
      <optgroup label={props.likelyLabel}>{likely.map(option)}</optgroup>
      <optgroup label={props.allLabel}>{rest.map(option)}</optgroup>
    </select>
  );
}
