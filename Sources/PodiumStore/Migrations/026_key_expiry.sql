-- API keys may expire (a display link given for one term): a key past expires_at is refused on every replica, by
-- each replica's own clock, as a revoked one is. NULL: no expiry.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- What an audited action changed, when its route says more than its path does (a key's id, role and expiry).
ALTER TABLE admin_audit ADD COLUMN detail text;
