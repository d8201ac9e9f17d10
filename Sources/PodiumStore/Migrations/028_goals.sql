-- Goals (docs/RULES.md, "Goals"): targets a player, or a group, reaches within a day or a week. A goal's revision comes
-- from the contests' sequence, so one revision tells a replica whether its copy of contests, leagues and goals is behind.
CREATE TABLE goals (
    id          text PRIMARY KEY,
    title       text NOT NULL,
    kind        text NOT NULL,          -- personal or class
    scope       text[] NOT NULL,        -- board ids: {global}, {topic:<name>} or {group:<a>, ...}
    measure     text NOT NULL,          -- completions, points, correct or perfect
    target      bigint NOT NULL CHECK (target > 0),
    goal_window text NOT NULL,          -- day or week
    time_zone   text NOT NULL,
    created_at  timestamptz NOT NULL,
    paused_at   timestamptz,            -- while set, no completion counts
    ended_at    timestamptz,            -- from then on nothing counts; set once
    revision    bigint NOT NULL DEFAULT nextval('contests_revision_seq')
);
CREATE INDEX goals_revision ON goals (revision);

-- Each subject's progress in a goal's period: a player's (personal goals) or a group's (class goals). The reach is
-- written once, by the transaction whose upsert took the progress over the target (`completed_in`, its id), so
-- `goal.completed` is written once per subject and period whatever the replicas and retries.
--
-- target        the goal's target, beside each row because the batch's upsert reads it from EXCLUDED
-- completed_in  the transaction that reached the target: the upsert answers whether it was its own
CREATE TABLE goal_progress (
    goal_id      text NOT NULL,
    period       text NOT NULL,
    subject      text NOT NULL,         -- a user id (personal) or a group name (class)
    progress     bigint NOT NULL,
    target       bigint NOT NULL,
    completed_at timestamptz,           -- when the target was reached (kept if an erasure takes progress below it)
    completed_in xid8,
    PRIMARY KEY (goal_id, period, subject)
);
CREATE INDEX goal_progress_subject ON goal_progress (subject);

-- What each player added to a class goal's progress, so erasing the player takes it out again.
CREATE TABLE goal_shares (
    goal_id  text NOT NULL,
    period   text NOT NULL,
    subject  text NOT NULL,             -- the group
    user_id  text NOT NULL,
    amount   bigint NOT NULL,
    PRIMARY KEY (goal_id, period, subject, user_id)
);
CREATE INDEX goal_shares_user ON goal_shares (user_id);
