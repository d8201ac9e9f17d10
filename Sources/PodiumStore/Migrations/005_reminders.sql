-- Reminders: each player's choices, the next instant to check, and the last local day reminded.

ALTER TABLE users ADD COLUMN reminders jsonb;
ALTER TABLE users ADD COLUMN next_reminder_at timestamptz;
ALTER TABLE users ADD COLUMN reminded_day integer;
-- The reminder job reads only the players whose reminder is due, by this index.
CREATE INDEX users_reminders_due ON users (next_reminder_at) WHERE next_reminder_at IS NOT NULL;

-- Days ops closed (holidays): no reminders on them, whatever the player's zone.
CREATE TABLE closed_days (
    day         date PRIMARY KEY,
    note        text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL
);
