// Browser code imports this file: Intl-based formatting keeps date-fns out of the bundle. Words and
// dates for people are the components' own, in the reader's language (lib/i18n/format.ts and the
// message catalogue); the one locale-free form, the 24-hour clock, is shared from there.
export { formatClock } from '@/lib/i18n/format';
