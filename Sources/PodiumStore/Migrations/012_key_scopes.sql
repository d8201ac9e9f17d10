-- Display keys, and board scopes that narrow what a read or display key may see
-- (patterns such as global, topic:*, group:class-4b; empty: every board).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('ingest', 'read', 'admin', 'display'));
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{}';
