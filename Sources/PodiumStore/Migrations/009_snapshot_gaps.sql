-- Positions that erased players left empty in snapshots. Around-me on a closed period needs the
-- number of entries before a position: the position minus the gaps below it, without counting
-- every entry of a board of a million.
CREATE TABLE snapshot_gaps (
    snapshot_id bigint NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    PRIMARY KEY (snapshot_id, position)
);

-- Gaps erasures left before this table existed: the missing positions of final snapshots that have any.
INSERT INTO snapshot_gaps (snapshot_id, position)
SELECT s.id, g.position
FROM snapshots s
CROSS JOIN LATERAL (SELECT max(position) AS last, count(*) AS n FROM snapshot_entries e WHERE e.snapshot_id = s.id) m
CROSS JOIN LATERAL generate_series(0, m.last) AS g(position)
WHERE s.kind = 'final' AND m.last + 1 > m.n
  AND NOT EXISTS (SELECT 1 FROM snapshot_entries e WHERE e.snapshot_id = s.id AND e.position = g.position);
