-- Every appended portal event notifies the channel `portal_events` with its id only (never the
-- data). NOTIFY is transactional: the notification is sent at commit, and only if the commit
-- happens, so listeners on every instance learn of exactly the committed events. Appenders hold
-- an advisory lock until commit (lib/events/store.ts), so notifications arrive in id order.
CREATE OR REPLACE FUNCTION portal_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_events', NEW.id::text);
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS portal_events_notify ON portal_events;
CREATE TRIGGER portal_events_notify AFTER INSERT ON portal_events
  FOR EACH ROW EXECUTE FUNCTION portal_events_notify();
