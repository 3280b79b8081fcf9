import type { ComponentProps } from 'react';

const TONES = {
  neutral: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  success: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  danger: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
} as const;

export type BadgeTone = keyof typeof TONES;

export type BadgeProps = ComponentProps<'span'> & {
  /** Colours; leave it out to give your own in `className` (with a border, say). */
  tone?: BadgeTone;
  size?: 'xs' | 'sm';
};

/** A small rounded label: a status, a system's name, what is happening now. Words, never colour alone. */
export function Badge({ tone, size = 'xs', className, ...props }: BadgeProps) {
  const classes = [
    'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-medium',
    size === 'sm' ? 'text-sm' : 'text-xs',
    tone ? TONES[tone] : null,
    className,
  ];
  return <span className={classes.filter(Boolean).join(' ')} {...props} />;
}
