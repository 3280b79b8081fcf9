-- Issue 33, items 5 and 7.
-- A cancellation whose effect is unknown is re-sent by the reconciler while the booking is still
-- there: `resends` counts the re-sends, `resend_after` is when the next look (and send) is due, so
-- the re-sends back off (up to 5 minutes apart) instead of hammering the service.
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resends integer NOT NULL DEFAULT 0;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resend_after timestamptz;
-- The collections of the current copy whose list the service never ended (a continuation that
-- repeated, or more pages than the cap): what was read is kept and used, and shown as incomplete.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS incomplete_lists jsonb;
