import { z } from 'zod';
import { USER_ROLES } from '@/lib/db/schema/auth';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './limits';
import { vkey } from '@/lib/i18n/validation-key';
import { passwordProblem } from './password-policy';

export { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from './limits';

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email(vkey('validation.email')))
  .transform((v) => v.toLowerCase());

/** A new password: long enough, not common, not the account's own name (lib/auth/password-policy.ts). */
export const passwordSchema = z.string().superRefine((v, ctx) => {
  const weakness = passwordProblem(v);
  if (weakness) ctx.addIssue({ code: 'custom', message: weakness.key, params: weakness.values });
});

export const roleSchema = z.enum(USER_ROLES);

/** What a sign-in form sends. Lenient on purpose: a bad password is "wrong", not "invalid". */
export const signInSchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH).transform((v) => v.toLowerCase()),
  password: z.string().max(1024),
});

export const nameSchema = z
  .string()
  .trim()
  .min(1, vkey('validation.required'))
  .max(NAME_MAX_LENGTH)
  .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE);

/** A new account made by an admin in the portal: a manager or another admin, same password policy as the CLI. */
export const newAccountSchema = z
  // The password is judged once, with the account's name and e-mail (the policy needs both).
  .object({ name: nameSchema, email: emailSchema, password: z.string(), role: z.enum(USER_ROLES) })
  .superRefine((v, ctx) => {
    const weakness = passwordProblem(v.password, v);
    if (weakness) ctx.addIssue({ code: 'custom', path: ['password'], message: weakness.key, params: weakness.values });
  });

/** The user a session stands for, as the server sees it after checking the database. */
export const sessionUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  /** The user's saved language choice, when there is one (lib/i18n/config.ts checks it). */
  locale: z.string().nullish(),
  /** The language the session signed in under (its sign-in's cookie or Accept-Language), if any. */
  signedInUnder: z.string().nullish(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
