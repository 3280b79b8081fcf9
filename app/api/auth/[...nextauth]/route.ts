import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { withApiHeaders } from '@/lib/api/headers';
import { getAuthOptions } from '@/lib/auth/options';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

// GET, POST /api/auth/* — next-auth: sign-in, sign-out, session, CSRF token, providers
async function handler(request: NextRequest, context: Context): Promise<Response> {
  return withApiHeaders((await NextAuth(request, context, await getAuthOptions())) as Response);
}

export { handler as GET, handler as POST };
