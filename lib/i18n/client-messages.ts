import type { AbstractIntlMessages } from 'next-intl';

/**
 * Catalogue namespaces no browser code reads: server pages, e-mails, metadata and admin screens
 * render them on the server. The root layout leaves them out of the catalogue it hands to client
 * components, which every page's HTML carries whole (issue 34: one room's week page HTML).
 * lib/i18n/client-messages.test.ts fails if a client module, or a message an API answer can carry
 * (`msg(...)`), comes to use one, and if a namespace neither reads is missing here (a new
 * server-only namespace would otherwise reach every page: personalData did, 10 kB).
 */
export const SERVER_ONLY_NAMESPACES = ['metadata', 'ui', 'admin', 'audit', 'reports', 'portfolio', 'mail', 'mailSettings', 'building', 'ruleSet', 'requestBudget', 'personalData', 'mirrorLoad'] as const;

/** The catalogue for client components: all but SERVER_ONLY_NAMESPACES. */
export function clientMessages(messages: AbstractIntlMessages): AbstractIntlMessages {
  const kept: AbstractIntlMessages = {};
  for (const [namespace, value] of Object.entries(messages)) {
    if (!(SERVER_ONLY_NAMESPACES as readonly string[]).includes(namespace)) kept[namespace] = value;
  }
  return kept;
}
