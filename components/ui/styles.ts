// Class lists for plain elements that have no component of their own (fields, labels, text), so
// that they look alike everywhere. Buttons, cards, badges and dialogs are components beside this.
export { cardClass } from './card';

export const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';
export const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';
/** Secondary text: hints, descriptions, "nothing here" notes. */
export const mutedTextClass = 'text-sm text-slate-700 dark:text-slate-300';
/** A failure said in a sentence, next to what failed. */
export const errorTextClass = 'text-sm font-medium text-red-700 dark:text-red-300';
/** The term of a term–description pair (<dt>). */
export const termClass = 'text-slate-600 dark:text-slate-400';
