-- Leagues: weekly cohorts with promotion and relegation (docs/RULES.md, "Leagues"). A league's revision comes from
-- the contests' sequence, so one revision tells a replica whether its copy of contests and leagues is behind.
CREATE TABLE leagues (
    id           text PRIMARY KEY,
    name         text NOT NULL,
    scope        text[] NOT NULL,        -- board ids: {global}, {topic:<name>} or {group:<a>, ...}
    time_zone    text NOT NULL,          -- its weeks are ISO weeks in this zone
    tiers        jsonb NOT NULL,         -- [{"name", "title", "up", "down"}], lowest tier first
    cohort_size  integer NOT NULL CHECK (cohort_size BETWEEN 2 AND 1000),
    metric       text NOT NULL,
    tie_break    text NOT NULL,
    medals       boolean NOT NULL,
    created_at   timestamptz NOT NULL,
    paused_at    timestamptz,            -- while set, no completion counts
    ended_at     timestamptz,            -- from then on nothing counts; set once
    revision     bigint NOT NULL DEFAULT nextval('contests_revision_seq')
);
CREATE INDEX leagues_revision ON leagues (revision);

-- The tier each player earned at the last close they played in (0 is the lowest), and that close's week: an older
-- week's close, late, never overwrites a newer one's. A player without a row is new and enters the lowest tier.
CREATE TABLE league_players (
    league_id  text NOT NULL REFERENCES leagues (id),
    user_id    text NOT NULL,
    tier       integer NOT NULL,
    period     text NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX league_players_user ON league_players (user_id);

-- The cohorts of each week and tier, numbered from 1 in the order they opened, with the places taken (an erased
-- player's place is not given again).
CREATE TABLE league_cohorts (
    league_id  text NOT NULL,
    period     text NOT NULL,
    tier       integer NOT NULL,
    cohort     integer NOT NULL,
    members    integer NOT NULL,
    PRIMARY KEY (league_id, period, tier, cohort)
);

-- Who plays in which cohort each week: a row per player and week, written by their first scoring completion.
CREATE TABLE league_entries (
    league_id  text NOT NULL,
    period     text NOT NULL,
    user_id    text NOT NULL,
    tier       integer NOT NULL,
    cohort     integer NOT NULL,
    placed_at  timestamptz NOT NULL,
    PRIMARY KEY (league_id, period, user_id)
);
CREATE INDEX league_entries_user ON league_entries (user_id);
CREATE INDEX league_entries_cohort ON league_entries (league_id, period, tier, cohort);

-- What each close did to each player: their final rank in their cohort and the tier it gave them.
CREATE TABLE league_results (
    league_id  text NOT NULL,
    period     text NOT NULL,
    user_id    text NOT NULL,
    tier       integer NOT NULL,
    cohort     integer NOT NULL,
    rank       integer NOT NULL,
    score      bigint NOT NULL,
    outcome    text NOT NULL CHECK (outcome IN ('promoted', 'relegated', 'stayed')),
    next_tier  integer NOT NULL,
    closed_at  timestamptz NOT NULL,
    PRIMARY KEY (league_id, period, user_id)
);
CREATE INDEX league_results_user ON league_results (user_id);

-- Places each (league, week, user) of the arrays in a cohort of the player's tier with room, unless placed already,
-- and returns every placement asked about. Only rows with `p_may_place` set may place; the others only read (a completion
-- that arrives after its week closed counts nowhere, but is told which cohort it missed).
--
-- Exact across replicas: a placement takes the advisory lock of its league, week and tier (class 17) until the
-- transaction ends, in (league, week, tier) order, so concurrent callers fill cohorts in the order they get the lock
-- and never place one player twice or overfill a cohort. Completion batches call it in a statement of its own, before
-- their transaction, so the locks are held for this call only and no other lock is ever taken while one is held.
CREATE FUNCTION league_place(p_leagues text[], p_periods text[], p_users text[], p_sizes integer[], p_may_place boolean[], p_at timestamptz)
RETURNS TABLE (league_id text, period text, user_id text, tier integer, cohort integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    r record;
    placed_tier integer;
    placed_cohort integer;
    opens boolean;
BEGIN
    FOR r IN
        SELECT x.l, x.p, x.u, x.s, x.place, COALESCE(lp.tier, 0) AS earned, x.i
        FROM unnest(p_leagues, p_periods, p_users, p_sizes, p_may_place) WITH ORDINALITY AS x(l, p, u, s, place, i)
        LEFT JOIN league_players lp ON lp.league_id = x.l AND lp.user_id = x.u
        ORDER BY x.l, x.p, COALESCE(lp.tier, 0), x.i
    LOOP
        SELECT e.tier, e.cohort INTO placed_tier, placed_cohort FROM league_entries e
        WHERE e.league_id = r.l AND e.period = r.p AND e.user_id = r.u;
        IF NOT FOUND AND r.place THEN
            PERFORM pg_advisory_xact_lock(17, hashtext(r.l || '|' || r.p || '|' || r.earned));
            -- Asked again under the lock, in a new snapshot: what a batch that held it placed is visible now.
            SELECT e.tier, e.cohort INTO placed_tier, placed_cohort FROM league_entries e
            WHERE e.league_id = r.l AND e.period = r.p AND e.user_id = r.u;
            IF NOT FOUND THEN
                placed_tier := r.earned;
                SELECT k.cohort INTO placed_cohort FROM league_cohorts k
                WHERE k.league_id = r.l AND k.period = r.p AND k.tier = r.earned AND k.members < r.s
                ORDER BY k.cohort LIMIT 1;
                opens := NOT FOUND;
                IF opens THEN
                    SELECT COALESCE(max(k.cohort), 0) + 1 INTO placed_cohort FROM league_cohorts k
                    WHERE k.league_id = r.l AND k.period = r.p AND k.tier = r.earned;
                END IF;
                -- A caller that read another tier (a close committed between two callers' reads) holds another lock:
                -- the entry's key decides, and the place is counted only when this call made the entry.
                INSERT INTO league_entries VALUES (r.l, r.p, r.u, r.earned, placed_cohort, p_at) ON CONFLICT DO NOTHING;
                IF FOUND THEN
                    IF opens THEN
                        INSERT INTO league_cohorts VALUES (r.l, r.p, r.earned, placed_cohort, 1);
                    ELSE
                        UPDATE league_cohorts k SET members = k.members + 1
                        WHERE k.league_id = r.l AND k.period = r.p AND k.tier = r.earned AND k.cohort = placed_cohort;
                    END IF;
                ELSE
                    SELECT e.tier, e.cohort INTO placed_tier, placed_cohort FROM league_entries e
                    WHERE e.league_id = r.l AND e.period = r.p AND e.user_id = r.u;
                END IF;
            END IF;
        END IF;
        IF placed_cohort IS NOT NULL THEN
            league_id := r.l; period := r.p; user_id := r.u; tier := placed_tier; cohort := placed_cohort;
            RETURN NEXT;
        END IF;
        placed_cohort := NULL;
    END LOOP;
END
$$;
