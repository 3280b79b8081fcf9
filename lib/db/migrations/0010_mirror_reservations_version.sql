-- Counts the confirmed outcomes applied to a system's mirrored reservations in place (a webhook's
-- booking or cancellation, lib/mirror/store.ts applyReservationChange), bumped in the same
-- transaction. A generation's reservations change only that way, so a reader that keeps a week's
-- reservations in memory under (generation, reservations_version) can never serve a stale copy:
-- it reads the state row on every request anyway, on every instance.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS reservations_version bigint NOT NULL DEFAULT 0;
