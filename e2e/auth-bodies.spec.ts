import { BASE_URL, expect, test } from './utils';

// Issue 47, item 9: next-auth parses sign-in and sign-out bodies itself; malformed JSON threw out of
// its handler — a 500 with an empty body and a stack trace in the log. Now a 400 with a sentence.
test('sign-in and sign-out refuse a malformed body with a 400 and a sentence, never a 500', async ({ request }) => {
  const cases: { path: string; body: string; type?: string; status?: number; message: RegExp }[] = [
    { path: '/api/auth/callback/credentials', body: '{"email":', message: /^The request body is not valid JSON\.$/ },
    { path: '/api/auth/signout', body: '{', message: /^The request body is not valid JSON\.$/ },
    { path: '/api/auth/signin/credentials', body: 'not json', type: 'application/json; charset=utf-8', message: /^The request body is not valid JSON\.$/ },
    { path: '/api/auth/callback/credentials', body: 'null', message: /object of text fields/ },
    { path: '/api/auth/signout', body: '[]', message: /object of text fields/ },
    { path: '/api/auth/callback/credentials', body: JSON.stringify({ email: 1, password: ['x'], csrfToken: 'x' }), message: /object of text fields/ },
    { path: '/api/auth/callback/credentials', body: `email=${'x'.repeat(20_000)}`, type: 'application/x-www-form-urlencoded', status: 413, message: /larger than 16,384 bytes/ },
  ];
  for (const c of cases) {
    const answer = await request.post(c.path, { data: Buffer.from(c.body), headers: { 'content-type': c.type ?? 'application/json', origin: BASE_URL } });
    expect(answer.status(), `${c.path} ${c.body.slice(0, 20)}`).toBe(c.status ?? 400);
    expect(((await answer.json()) as { error: { message: string } }).error.message, c.path).toMatch(c.message);
    expect(answer.headers()['content-security-policy']).toContain("default-src 'none'");
  }
  // What the forms send still works: the CSRF token, then a sign-in refused for a wrong password (no 4xx of ours).
  const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const wrong = await request.post('/api/auth/callback/credentials', { form: { csrfToken: csrf.csrfToken, email: 'nobody@example.com', password: 'wrong-password', json: 'true' }, headers: { origin: BASE_URL } });
  expect(new URL(((await wrong.json()) as { url: string }).url).searchParams.get('error')).toBe('CredentialsSignin');
});
