import 'server-only';
import { log } from '@/lib/log';
import { handleApiError, isApiError, isZodError, type ErrorBody } from './errors';

/** What a server action answers to its form: a success line or an error line, both safe to show. */
export interface ActionState {
  ok?: string;
  error?: string;
}

/** Runs a server action's work; known errors become their message, unknown ones a generic line. */
export async function runAction(work: () => Promise<string>): Promise<ActionState> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (isApiError(error)) return { error: error.message };
    if (isZodError(error)) {
      return { error: error.issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')} ${i.message}` : i.message)).join('; ') };
    }
    // Other families (upstream errors) get the same wording as in route handlers; unknown errors
    // are logged there and answered with a generic line.
    try {
      const body = (await handleApiError(error).json()) as ErrorBody;
      return { error: body.error.message };
    } catch {
      log.error('server action failed', { error });
      return { error: 'Something went wrong on our side. Please try again.' };
    }
  }
}
