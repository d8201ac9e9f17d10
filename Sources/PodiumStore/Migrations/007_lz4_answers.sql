-- Stored answers are about 2 kB of JSON, over the TOAST threshold, so each insert compresses one.
-- lz4 compresses several times faster than the default pglz (which showed in PostgreSQL's CPU
-- profile under ingest) at a similar size. Existing rows keep their compression until rewritten.
ALTER TABLE completions ALTER COLUMN response SET COMPRESSION lz4;
