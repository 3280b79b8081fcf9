import type { HTMLAttributes } from 'react';

/** A bordered box around one thing (a system, a resident, a resource, a form). */
export const cardClass = 'rounded-lg border border-slate-300 p-4 dark:border-slate-700';

export type CardProps = HTMLAttributes<HTMLElement> & {
  /** The element the card is: a list item in a list of cards, an article, a section… */
  as?: 'div' | 'li' | 'article' | 'section';
};

export function Card({ as: Tag = 'div', className, ...props }: CardProps) {
  return <Tag className={className ? `${cardClass} ${className}` : cardClass} {...props} />;
}
