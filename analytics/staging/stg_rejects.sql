-- stg_rejects: hands (or whole files) the parser or the referee refused, with where and why
-- (raw `rejects`). `line` is the hand's first line; `error_line` the line of the first error.
-- `superseded`: the same hand of the same file was accepted by a later import. That happens when
-- an import catches a live file while the client is still writing its last hand: the half hand
-- is rejected as it stands (and kept: `rejects` is append-only), and once the file has grown the
-- completed hand is imported. A `conflict` (the number is stored with another text) is never
-- superseded: its text differs from the stored hand's by definition.
CREATE OR REPLACE VIEW stg_rejects AS
SELECT
    r.site,
    r.hand_id,
    r.source,
    r.line,
    r.error_line,
    r.status,
    r.code,
    r.message,
    r.game,
    r.errors,
    r.code <> 'conflict' AND r.hand_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM hands AS h WHERE h.hand_id = r.hand_id AND h.source = r.source
    ) AS superseded
FROM rejects AS r;
