-- Leases for maintenance work that must not run twice at once (a rankings rebuild),
-- shared by every replica through PostgreSQL.
CREATE TABLE maintenance_leases (
    name        text PRIMARY KEY,
    holder      text NOT NULL,
    expires_at  timestamptz NOT NULL
);

-- Points per completion can exceed 32 bits with large configured bonuses.
ALTER TABLE completions ALTER COLUMN points TYPE bigint;
ALTER TABLE user_topics ALTER COLUMN best_points TYPE bigint;
