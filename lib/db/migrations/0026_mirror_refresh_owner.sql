-- A refresh's lease has an owner: the claim sets refresh_id, and every later write of that refresh
-- (a page with its progress, the switch to the new generation, the record of a failure) acts only
-- while refresh_id is still its own, renewing refresh_started_at as it goes. Before, a refresh
-- slower than the lease (5 min) was taken over while it still ran: both wrote one generation, the
-- first to end released the other's lease, and a failure of the second deleted the live copy.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS refresh_id uuid;
