-- Each player's handle: a number given once, in order of first appearance, that names the
-- player inside Redis as a 6-character member (PodiumCore's RankingMember), so a sorted-set
-- entry costs the same whatever the length of the client's user id. Ties list by handle.
-- Existing players get handles in the order they were created.
ALTER TABLE users ADD COLUMN handle bigint;
CREATE SEQUENCE users_handle_seq AS bigint MINVALUE 1 MAXVALUE 68719476735 OWNED BY users.handle;
UPDATE users SET handle = n.handle
FROM (SELECT user_id, row_number() OVER (ORDER BY created_at, user_id COLLATE "C") AS handle FROM users) n
WHERE users.user_id = n.user_id;
SELECT setval('users_handle_seq', max(handle)) FROM users HAVING count(*) > 0;
ALTER TABLE users ALTER COLUMN handle SET DEFAULT nextval('users_handle_seq'),
                  ALTER COLUMN handle SET NOT NULL;
CREATE UNIQUE INDEX users_handle ON users (handle);

-- An erasure Redis missed removes the erased player's members (more than one if the player came
-- back and was erased again), which no users row holds any more. Rows queued before this migration
-- have none: their players were members by user id, and the rebuild that follows this migration
-- (the ready marker's name changed) replaces every board anyway.
ALTER TABLE pending_ranking_erasures ADD COLUMN members text[] NOT NULL DEFAULT '{}';
