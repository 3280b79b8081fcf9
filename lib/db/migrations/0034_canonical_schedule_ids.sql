-- Issue 47, item 1: a room's timeScheduleId (a plain string upstream) is kept in the one spelling
-- the portal compares ids in: a GUID lower case, hyphenated, without braces (lib/service/schemas.ts
-- canonicalId), as the uuid columns of the schedules hold theirs. Rows read before kept the
-- service's spelling ('3F1C…', '{3f1c…}'), which no schedule id equals: rewritten once here.
UPDATE mirror_resources
   SET time_schedule_id = lower(btrim(btrim(time_schedule_id), '{}'))
 WHERE btrim(time_schedule_id) ~* '^(\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$'
   AND time_schedule_id <> lower(btrim(btrim(time_schedule_id), '{}'));
