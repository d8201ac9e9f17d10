-- Players follow other players: the friends view of a board and friends' progress on the profile.
-- A followed player need not have played yet. Erasing a player deletes their list and every entry naming them.
CREATE TABLE follows (
    user_id text NOT NULL,
    followed_id text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, followed_id),
    CHECK (user_id <> followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);
