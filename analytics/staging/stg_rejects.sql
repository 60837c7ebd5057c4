-- stg_rejects: hands (or whole files) the parser or the referee refused, with where and why
-- (raw `rejects`). `line` is the hand's first line; `error_line` the line of the first error.
CREATE OR REPLACE VIEW stg_rejects AS
SELECT
    site,
    hand_id,
    source,
    line,
    error_line,
    status,
    code,
    message,
    game,
    errors
FROM rejects;
