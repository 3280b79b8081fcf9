import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { msg } from '@/lib/i18n/message';
import { ApiError } from '@/lib/errors/api-error';

const locale = vi.hoisted(() => ({ value: 'sv' }));
vi.mock('@/lib/api/request-locale', () => ({ getRequestLocale: () => Promise.resolve(locale.value) }));

const { runAction } = await import('./action-result');

describe('runAction', () => {
  afterEach(() => {
    locale.value = 'sv';
  });

  it("answers a server action's refusal in the request's language", async () => {
    const refuse = () => Promise.reject(new ApiError('conflict', msg('errors.alreadyActive', { name: 'Dora' })));
    expect(await runAction(refuse)).toEqual({ error: 'Dora är redan aktiv.' });
    locale.value = 'en';
    expect(await runAction(refuse)).toEqual({ error: 'Dora is already active.' });
  });

  it('says what is wrong with each field in that language', async () => {
    const invalid = () => Promise.resolve(z.object({ name: z.string().max(3) }).parse({ name: 'abcdef' })).then(() => 'ok');
    expect(await runAction(invalid)).toEqual({ error: 'name får vara högst 3 tecken' });
  });

  it('answers an unknown error with the generic sentence', async () => {
    expect(await runAction(() => Promise.reject(new Error('boom')))).toEqual({ error: 'Något gick fel hos oss. Försök igen.' });
  });
});
