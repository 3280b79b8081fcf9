-- Issue 19: the lease of a room closure's cancellation job. The instance running a closure holds
-- it (renewed while it runs); another instance takes the closure over only once it has expired,
-- so two instances never run one closure at once, and a closure left by a crashed one is resumed.
ALTER TABLE room_closures ADD COLUMN IF NOT EXISTS lease_until timestamptz;
