-- Issue 47, item 4: a page that fails after its retries is read again from the same continuation
-- token after a backoff, instead of the whole read starting over. While a refresh waits to do so,
-- its progress says until when and why (busy: 429; unreachable: 5xx, timeout, no answer).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS waiting_until timestamptz;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS waiting_kind text;
