-- Podium core schema: players, completions, per-period scores, API keys.
-- PostgreSQL is the source of truth; Redis sorted sets are rebuilt from board_scores.

CREATE TABLE users (
    user_id          text PRIMARY KEY,
    display_name     text,
    time_zone        text NOT NULL DEFAULT 'UTC',
    points           bigint NOT NULL DEFAULT 0,
    completions      bigint NOT NULL DEFAULT 0,
    correct_answers  bigint NOT NULL DEFAULT 0,
    total_answers    bigint NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);

CREATE TABLE completions (
    id            text PRIMARY KEY,
    user_id       text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    quiz_id       text NOT NULL,
    topic         text NOT NULL,
    difficulty    text NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
    correct       integer NOT NULL CHECK (correct >= 0),
    total         integer NOT NULL CHECK (total > 0 AND correct <= total),
    duration_ms   bigint CHECK (duration_ms >= 0),
    groups        text[] NOT NULL DEFAULT '{}',
    completed_at  timestamptz NOT NULL,
    recorded_at   timestamptz NOT NULL,
    points        integer NOT NULL,
    request_hash  text NOT NULL,
    -- The first answer, returned unchanged when the same id is posted again.
    response      jsonb NOT NULL,
    -- False until Redis holds the scores this completion produced.
    ranked        boolean NOT NULL DEFAULT false
);

-- History: newest first, cursor (completed_at, id).
CREATE INDEX completions_user_history ON completions (user_id, completed_at DESC, id DESC);
-- Pending ranking updates (Redis was down or the process stopped before updating it).
CREATE INDEX completions_unranked ON completions (recorded_at) WHERE NOT ranked;

CREATE TABLE user_topics (
    user_id          text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    topic            text NOT NULL,
    completions      bigint NOT NULL,
    correct_answers  bigint NOT NULL,
    total_answers    bigint NOT NULL,
    accuracy_sum     double precision NOT NULL,
    best_accuracy    double precision NOT NULL,
    best_points      integer NOT NULL,
    last_played_at   timestamptz NOT NULL,
    PRIMARY KEY (user_id, topic)
);

-- One row per player per board period: the truth behind every Redis sorted set.
CREATE TABLE board_scores (
    board         text NOT NULL,
    board_window  text NOT NULL,
    period        text NOT NULL,
    user_id       text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    score         bigint NOT NULL,
    updated_at    timestamptz NOT NULL,
    PRIMARY KEY (board, board_window, period, user_id)
) WITH (fillfactor = 80);  -- room for HOT updates: score is not indexed
CREATE INDEX board_scores_user ON board_scores (user_id);

CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    role        text NOT NULL CHECK (role IN ('ingest', 'read', 'admin')),
    key_hash    text NOT NULL UNIQUE,  -- SHA-256 of the secret, hex
    prefix      text NOT NULL,         -- first 8 characters of the secret, to recognise it in lists
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

-- Every board that has ever had a score, for GET /v1/leaderboards.
CREATE TABLE boards (
    board       text PRIMARY KEY,
    created_at  timestamptz NOT NULL
);

-- Players erased while Redis was unreachable: their ranking entries still to remove.
CREATE TABLE pending_ranking_erasures (
    user_id     text PRIMARY KEY,
    redis_keys  text[] NOT NULL,
    erased_at   timestamptz NOT NULL
);
