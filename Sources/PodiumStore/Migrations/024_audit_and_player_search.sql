-- The audit trail: each admin action that changed something (a 2xx answer to POST, PUT or DELETE on /v1/admin/…, and
-- erasing a player), who did it (the API key's id, or `bootstrap`) and when. An erased player's id is kept only as a
-- hash, so the trail can confirm an erasure of a known id without holding the id itself.
CREATE TABLE admin_audit (
    id          bigserial PRIMARY KEY,
    at          timestamptz NOT NULL,
    actor       text NOT NULL,
    action      text NOT NULL,
    target      text NOT NULL,
    status      smallint NOT NULL,
    request_id  text NOT NULL
);
CREATE INDEX admin_audit_actor ON admin_audit (actor, id);

-- An admin finds players by the start of their id (`GET /v1/admin/players?q=`): a prefix LIKE uses this index whatever
-- the database's collation. Display names are searched anywhere in the name, by a scan of users (admin only, rare).
CREATE INDEX users_user_id_prefix ON users (user_id text_pattern_ops);
