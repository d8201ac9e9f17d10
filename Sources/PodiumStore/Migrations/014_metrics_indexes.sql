-- The newest closed period of each window, read at every metrics scrape, without a scan of every period.
CREATE INDEX board_periods_closed_end ON board_periods (board_window, ends_at) WHERE closed_at IS NOT NULL;

-- Each webhook's undelivered and dead deliveries, also read at every scrape; delivered ones are most rows and none of these.
CREATE INDEX webhook_deliveries_undelivered ON webhook_deliveries (webhook_id) WHERE status <> 'delivered';
