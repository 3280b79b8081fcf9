import { describe, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { craftedClient } from '@/tests/crafted-service';
import { apiKeyGeneratorFor } from './api-key-generator';

const APPROVAL = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const problem = (status: number, detail: string) => () => Response.json({ title: 'Problem', status, detail }, { status, headers: { 'content-type': 'application/problem+json' } });

// A real service's answers to apikey/generate, crafted: each refusal of the approval is the admin's
// input (a 4xx with a sentence), never "something went wrong on our side".
describe('apikey/generate refusals', () => {
  for (const [status, detail] of [
    [404, 'No such approval'],
    [400, 'The approval id is malformed'],
  ] as const) {
    it(`maps the service's ${status} "${detail}" to a 404 naming the approval`, async () => {
      const generate = apiKeyGeneratorFor(craftedClient({ [`/v1/apikey/generate/${APPROVAL}`]: problem(status, detail) }));
      const response = await handleApiError(await generate(APPROVAL).catch((e: unknown) => e));
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        'No approval with this id exists at the service. Check the id with the system owner; nothing was connected.',
      );
    });
  }

  it('keeps a service outage a 503, not the admin\'s fault', async () => {
    const generate = apiKeyGeneratorFor(craftedClient({ [`/v1/apikey/generate/${APPROVAL}`]: problem(503, 'down') }));
    expect((await handleApiError(await generate(APPROVAL).catch((e: unknown) => e))).status).toBe(503);
  });
});
