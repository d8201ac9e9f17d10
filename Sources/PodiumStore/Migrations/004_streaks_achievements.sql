-- Streaks and achievements.

-- Local days (the player's time zone when the completion was recorded) with at least one completion,
-- as day numbers since 1970-01-01: streaks are runs of consecutive numbers.
CREATE TABLE user_days (
    user_id  text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    day      integer NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- Each achievement at most once per player (the primary key), with the completion that unlocked it.
CREATE TABLE user_achievements (
    user_id        text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    achievement    text NOT NULL,
    unlocked_at    timestamptz NOT NULL,
    completion_id  text NOT NULL,
    PRIMARY KEY (user_id, achievement)
);
