-- rejects: every hand (or whole file) the import refused, grouped by error code (most frequent
-- code first): the file, the line of the first error, the hand's first line, the hand number,
-- whether it was unparsed / invalid / unsupported, and the message saying why. A half-written
-- last hand that a later import read whole (`superseded` in stg_rejects) is not listed: nothing
-- of it is missing from the warehouse.
WITH rejects AS (
    SELECT * FROM stg_rejects
    WHERE NOT superseded
),

final AS (
    SELECT
        code,
        count(*) OVER (PARTITION BY code)                                     AS code_count,
        source,
        error_line,
        line                                                                  AS hand_line,
        hand_id,
        status,
        message
    FROM rejects
    ORDER BY code_count DESC, code, source, error_line
)

SELECT * FROM final
