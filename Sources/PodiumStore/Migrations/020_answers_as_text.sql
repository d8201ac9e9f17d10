-- Each completion's stored answer, replayed as it was first sent, is kept as text (issue 24).
--
-- completions.answer    the answer's JSON text, lz4-compressed; NULL only on completions recorded before this
--                       migration, whose answer stays in response.
-- completions.response  the answer as jsonb, as recorded before this migration; NULL on later completions.
--
-- Nothing queries inside an answer: it is only read back whole for a replay. As jsonb PostgreSQL parsed every
-- answer (about 2 kB) at each insert; as text it stores the bytes. No table rewrite and no scan: older rows keep their
-- jsonb, and readers take COALESCE(answer, response::text). The check holds every new row to one of the two; the
-- rows before it all have a response (it was NOT NULL), so it is not validated against them (NOT VALID), which would
-- read the whole table under this migration's lock.
ALTER TABLE completions ADD COLUMN answer text COMPRESSION lz4;
ALTER TABLE completions ALTER COLUMN response DROP NOT NULL;
ALTER TABLE completions ADD CONSTRAINT completions_answer_kept CHECK (answer IS NOT NULL OR response IS NOT NULL) NOT VALID;
