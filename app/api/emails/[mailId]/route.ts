import { ApiError } from '@/lib/errors/api-error';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { msg } from '@/lib/i18n/message';
import { MAIL_FILES, mailFile, readMailFor, retryMailFor, type MailFile } from '@/lib/mail/view';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ mailId: string }> };

// GET /api/emails/{mailId}?file=eml|ics|html — a resident e-mail: the message (.eml) or its calendar file (.ics) as a download, or its HTML part to view (sandboxed)
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const user = await requireUser();
  const file = new URL(request.url).searchParams.get('file');
  if (!(MAIL_FILES as readonly (string | null)[]).includes(file)) throw new ApiError('bad_request', msg('errors.mailFileUnknown'));
  const { db } = await getDb();
  const row = await readMailFor(db, user, (await params).mailId);
  const download = await mailFile(row, file as MailFile);
  const html = file === 'html';
  return new Response(download.body, {
    headers: {
      'content-type': download.type,
      'content-disposition': `${html ? 'inline' : 'attachment'}; filename="${download.name}"`,
      // The HTML part names come from upstream: shown as an opaque, script-less document.
      ...(html ? { 'content-security-policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'" } : {}),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});

// POST /api/emails/{mailId} — sends a failed e-mail again now (queued with a fresh count of attempts); { id, status }
export const POST = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const { db } = await getDb();
  const row = await retryMailFor(db, user, (await params).mailId);
  return Response.json({ id: row.id, status: row.status });
});
