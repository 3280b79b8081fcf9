import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { isServiceError, type ServiceClient } from '@/lib/service';
import type { ApiKeyGenerator } from './connect';

/** apikey/generate through a service client. */
export const apiKeyGeneratorFor = (client: ServiceClient): ApiKeyGenerator => async (approvalId) => {
  try {
    return await client.apiKeys.generate(approvalId);
  } catch (error) {
    // An unknown, malformed or refused approval is the admin's input, not a portal fault: say so plainly.
    if (
      isServiceError(error) &&
      (error.kind === 'not-found' || error.kind === 'validation' || (error.kind === 'auth' && error.credential === 'apiKey'))
    ) {
      throw new ApiError('not_found', msg('errors.noSuchApproval'));
    }
    throw error;
  }
};
