// Browser-side JSON reads from the portal's own route handlers.

/** A failed call to one of our route handlers, with the message the handler chose to show. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly kind = 'http' as const;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal, cache: 'no-store' });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(0, 'The portal could not be reached. Check the connection and try again.');
  }
  if (!response.ok) {
    let message = `The portal answered ${response.status}.`;
    try {
      const body = (await response.json()) as { error?: { message?: string } };
      if (body.error?.message) message = body.error.message;
    } catch {
      // Not JSON (e.g. a proxy's error page): keep the status line.
    }
    throw new HttpError(response.status, message);
  }
  return (await response.json()) as T;
}

/** An answer of the portal that was not 2xx (or no answer: status 0), recognised by its `kind`. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'http';
}
