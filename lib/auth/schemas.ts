import { z } from 'zod';
import { USER_ROLES } from '@/lib/db/schema/auth';

export const PASSWORD_MIN_LENGTH = 10;
/** bcrypt ignores everything after 72 bytes; longer passwords would silently be truncated. */
export const PASSWORD_MAX_BYTES = 72;
export const NAME_MAX_LENGTH = 120;
export const EMAIL_MAX_LENGTH = 254;

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('must be an e-mail address'))
  .transform((v) => v.toLowerCase());

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine((v) => Buffer.byteLength(v, 'utf8') <= PASSWORD_MAX_BYTES, `must be at most ${PASSWORD_MAX_BYTES} bytes`);

export const roleSchema = z.enum(USER_ROLES);

/** What a sign-in form sends. Lenient on purpose: a bad password is "wrong", not "invalid". */
export const signInSchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH).transform((v) => v.toLowerCase()),
  password: z.string().max(1024),
});

export const newManagerSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
  email: emailSchema,
  password: passwordSchema,
});

/** The user a session stands for, as the server sees it after checking the database. */
export const sessionUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
