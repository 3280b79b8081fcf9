import NextAuth from 'next-auth';
import { authRequest } from '@/lib/api/auth-request';
import { withErrors } from '@/lib/api/route';
import { getAuthOptions } from '@/lib/auth/options';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

// GET, POST /api/auth/* — next-auth: sign-in, sign-out, session, CSRF token, providers
const handler = withErrors(async (request: Request, context: Context): Promise<Response> => (await NextAuth(await authRequest(request), context, await getAuthOptions())) as Response);

export { handler as GET, handler as POST };
