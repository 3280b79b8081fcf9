-- Issue 20: a first load shows the rooms and their slots before the reservations are in.
-- structure_generation: the generation being loaded, once its resources and time schedules are
-- complete (null otherwise; cleared when the load completes or fails). reservations_read: the
-- reservations of the loading generation written so far (the progress a view shows).
-- reservations_loaded: how many the last complete load read, the only honest estimate of the next
-- load's total (items come in no order, so a load in progress cannot estimate its own).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS structure_generation bigint;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS reservations_read integer NOT NULL DEFAULT 0;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS reservations_loaded integer;
