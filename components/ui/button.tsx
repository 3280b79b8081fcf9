import type { ComponentProps } from 'react';

const VARIANTS = {
  /** The one main action of a form or dialog. */
  primary:
    'inline-flex items-center justify-center rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-60',
  /** Everything else: choose, close, retry, cancel. */
  secondary:
    'inline-flex items-center justify-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

function buttonClassName(variant: ButtonVariant = 'primary', className?: string): string {
  return className ? `${VARIANTS[variant]} ${className}` : VARIANTS[variant];
}

export type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant };

/** A native <button> in the portal's look; `type` defaults to "button" (say "submit" in forms). */
export function Button({ variant = 'primary', type = 'button', className, ...props }: ButtonProps) {
  return <button type={type} className={buttonClassName(variant, className)} {...props} />;
}
