-- Display-name changes Redis missed because it was unreachable. The ranking sync applies each one
-- from users.display_name (set, or removed when cleared or the player is gone) and then forgets it,
-- so a name a child cleared cannot stay on the live boards.
CREATE TABLE pending_display_names (
    user_id text PRIMARY KEY,
    queued_at timestamptz NOT NULL
);
