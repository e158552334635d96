-- A commit of many games' moves (``play.store.record_moves``) passes them as one array of rows of
-- this type rather than as twelve arrays of one column each: the client encodes a row for about
-- half the CPU (the driver checks every element of an array for a nested array, and a row's fields
-- are not elements). The fields are the columns of ``moves`` and ``entries`` that a move writes.
CREATE TYPE move_row AS (
    entry_id bigint,
    epoch bigint,
    n int,
    seq bigint,
    move text,
    t float8,
    score int,
    reveals int,
    sequences int,
    status text,
    final_score int,
    time_left int
);
