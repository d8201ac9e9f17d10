-- Contests: competitions admins create, whose boards (contest:<id>, window contest) have the runs of their
-- schedule as periods. A run is closed, snapshotted and awarded by close-periods like any period (board_periods).
-- Each change takes a new revision from the sequence, so a replica can tell its copy of the contests is behind.
CREATE SEQUENCE contests_revision_seq;
CREATE TABLE contests (
    id                text PRIMARY KEY,
    title             text NOT NULL,
    scope             text[] NOT NULL,        -- board ids: {global}, {topic:<name>} or {group:<a>, group:<b>, ...}
    starts_at         timestamptz,            -- once: the run's start; recurring: no run starts before it (optional)
    ends_at           timestamptz,            -- once: the run's end; recurring: no run starts at or after it (optional)
    cron              text,                   -- recurring: when runs start, read in time_zone
    duration_seconds  integer,                -- recurring: how long a run lasts at most
    time_zone         text NOT NULL,
    entry             text NOT NULL CHECK (entry IN ('open', 'join')),
    max_players       integer CHECK (max_players > 0),
    metric            text NOT NULL,
    tie_break         text NOT NULL,
    medals            boolean NOT NULL,
    created_at        timestamptz NOT NULL,
    cancelled_at      timestamptz,
    revision          bigint NOT NULL DEFAULT nextval('contests_revision_seq'),
    CHECK ((cron IS NULL) = (duration_seconds IS NULL)),
    CHECK (cron IS NOT NULL OR (starts_at IS NOT NULL AND ends_at IS NOT NULL AND starts_at < ends_at))
);
CREATE INDEX contests_revision ON contests (revision);

-- Players who joined a contest whose entry is 'join'. A player may join before playing at all; erasing a player
-- deletes their entries.
CREATE TABLE contest_entries (
    contest_id  text NOT NULL REFERENCES contests (id),
    user_id     text NOT NULL,
    joined_at   timestamptz NOT NULL,
    PRIMARY KEY (contest_id, user_id)
);
CREATE INDEX contest_entries_user ON contest_entries (user_id);

-- Each group's total in each contest run, written with the board scores: what the term comparison ranks groups by.
CREATE TABLE contest_group_scores (
    board       text NOT NULL,
    period      text NOT NULL,
    group_name  text NOT NULL,
    score       bigint NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (board, period, group_name)
);

ALTER TABLE board_periods DROP CONSTRAINT board_periods_board_window_check;
ALTER TABLE board_periods ADD CONSTRAINT board_periods_board_window_check CHECK (board_window IN ('day', 'week', 'month', 'contest'));
