-- Scheduler, period close with medals, snapshots and the events outbox.

-- Every board period that has had a score, and whether the close job has closed it.
-- Written with the scores (ON CONFLICT DO NOTHING), so close-periods finds what is due by index.
-- The all-time window never closes and has no row here.
CREATE TABLE board_periods (
    board              text NOT NULL,
    board_window       text NOT NULL CHECK (board_window IN ('day', 'week', 'month')),
    period             text NOT NULL,
    ends_at            timestamptz NOT NULL,  -- exclusive end; it closes at ends_at plus the configured grace
    closed_at          timestamptz,           -- set by close-periods, in the same transaction as the final snapshot
    final_snapshot_id  bigint,
    redis_pruned_at    timestamptz,           -- set by prune once the Redis sorted set is gone
    PRIMARY KEY (board, board_window, period)
);
CREATE INDEX board_periods_due ON board_periods (ends_at) WHERE closed_at IS NULL;
CREATE INDEX board_periods_prunable ON board_periods (closed_at) WHERE closed_at IS NOT NULL AND redis_pruned_at IS NULL;

-- A snapshot of one board period: scheduled (top N of an open period) or final (the whole board at close).
CREATE TABLE snapshots (
    id            bigserial PRIMARY KEY,
    board         text NOT NULL,
    board_window  text NOT NULL,
    period        text NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('scheduled', 'final')),
    taken_at      timestamptz NOT NULL,
    players       integer NOT NULL,
    UNIQUE (board, board_window, period, kind, taken_at)
);
CREATE INDEX snapshots_taken ON snapshots (taken_at) WHERE kind = 'scheduled';

-- Entries of a snapshot, best first; medals only in final snapshots of medal boards.
CREATE TABLE snapshot_entries (
    snapshot_id  bigint NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    position     integer NOT NULL,  -- 0-based listing order: score, then user id
    user_id      text NOT NULL,
    score        bigint NOT NULL,
    rank         integer NOT NULL,
    medal        text CHECK (medal IN ('gold', 'silver', 'bronze')),
    PRIMARY KEY (snapshot_id, position)
);
CREATE INDEX snapshot_entries_user ON snapshot_entries (user_id, snapshot_id);
CREATE INDEX snapshot_entries_medals ON snapshot_entries (user_id) WHERE medal IS NOT NULL;

-- The outbox. `tx` orders events by the transaction that wrote them; a reader only returns events of
-- transactions older than every transaction still running, so the feed has no gaps and no repeats.
CREATE TABLE events (
    id           bigserial PRIMARY KEY,
    tx           xid8 NOT NULL DEFAULT pg_current_xact_id(),
    type         text NOT NULL,
    user_id      text,  -- the player it concerns, so erasure can remove it
    occurred_at  timestamptz NOT NULL,
    payload      jsonb NOT NULL
);
CREATE INDEX events_feed ON events (tx, id);
CREATE INDEX events_user ON events (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX events_age ON events (occurred_at);

-- Per job: paused or not (the schedule itself comes from configuration).
CREATE TABLE jobs (
    name        text PRIMARY KEY,
    paused      boolean NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL
);

-- One row per (job, slot): the claim that makes a slot run to success at most once.
CREATE TABLE job_runs (
    job               text NOT NULL,
    slot              timestamptz NOT NULL,
    trigger           text NOT NULL CHECK (trigger IN ('schedule', 'catch-up', 'manual')),
    status            text NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'missed')),
    attempt           integer NOT NULL DEFAULT 0,
    attempt_limit     integer NOT NULL DEFAULT 1,  -- the run fails once `attempt` reaches it
    replica           text,
    lease_expires_at  timestamptz,
    next_attempt_at   timestamptz,
    created_at        timestamptz NOT NULL,
    started_at        timestamptz,
    finished_at       timestamptz,
    error             text,
    result            jsonb,
    PRIMARY KEY (job, slot)
);
CREATE INDEX job_runs_active ON job_runs (status) WHERE status IN ('pending', 'running');
CREATE INDEX job_runs_finished ON job_runs (finished_at);

-- Every attempt of a run: who ran it, when, and how it ended.
CREATE TABLE job_attempts (
    job          text NOT NULL,
    slot         timestamptz NOT NULL,
    attempt      integer NOT NULL,
    replica      text NOT NULL,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    outcome      text CHECK (outcome IN ('succeeded', 'failed', 'lease-lost')),
    error        text,
    PRIMARY KEY (job, slot, attempt),
    FOREIGN KEY (job, slot) REFERENCES job_runs (job, slot) ON DELETE CASCADE
);
