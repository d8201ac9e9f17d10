-- Webhooks: registrations, the fan-out cursor, deliveries and their attempts.

CREATE TABLE webhooks (
    id           text PRIMARY KEY,
    url          text NOT NULL,
    event_types  text[] NOT NULL,
    secret       text NOT NULL,  -- HMAC key the receiver shares; never shown again
    enabled      boolean NOT NULL DEFAULT true,
    created_at   timestamptz NOT NULL
);

-- How far the outbox has been fanned out into deliveries (one row; the replica holding its lock dispatches).
CREATE TABLE webhook_dispatch (
    name      text PRIMARY KEY,
    tx        xid8 NOT NULL,
    event_id  bigint NOT NULL
);
INSERT INTO webhook_dispatch (name, tx, event_id)
SELECT 'outbox', COALESCE(max(tx), '0'::xid8), COALESCE(max(id), 0) FROM events;

-- One delivery per (webhook, event). Erasing a player or pruning an event removes its deliveries.
CREATE TABLE webhook_deliveries (
    id                bigserial PRIMARY KEY,
    webhook_id        text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id          bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    status            text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'dead')),
    attempts          integer NOT NULL DEFAULT 0,
    attempt_limit     integer NOT NULL,
    next_attempt_at   timestamptz,
    lease_expires_at  timestamptz,
    last_status_code  integer,
    last_error        text,
    created_at        timestamptz NOT NULL,
    delivered_at      timestamptz,
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    delivery_id  bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      integer NOT NULL,
    replica      text NOT NULL,
    started_at   timestamptz NOT NULL,
    duration_ms  integer NOT NULL,
    status_code  integer,
    error        text,
    PRIMARY KEY (delivery_id, attempt)
);
