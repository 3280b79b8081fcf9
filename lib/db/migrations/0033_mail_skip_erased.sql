-- Issue 37: erasing a resident stops their e-mails still waiting to be sent; such an e-mail is
-- skipped, and says why ('erased').
ALTER TABLE mail_outbox DROP CONSTRAINT IF EXISTS mail_outbox_skip_reason_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_skip_reason_check CHECK (skip_reason IS NULL OR skip_reason IN ('noAddress', 'disabled', 'erased'));
