-- Pupils' names (docs/organising.md, Pupils' privacy). A club chooses whether the public sees its
-- roster members' full names and handles (``public_names``) or, by default, their roster names as
-- initials ("Ann Smith" is "Ann S.") and no handle.
--
-- ``players.name`` is what every public route shows (standings, boards, sockets, exports, series,
-- brackets, matches); while a roster member's names are kept from the public its full roster name
-- waits in ``roster_name`` (shown to its clubs' organisers and members) and ``name`` holds the
-- initials. ``roster_name`` NULL: nothing is kept aside (the name and handle are public).
ALTER TABLE clubs ADD COLUMN public_names boolean NOT NULL DEFAULT false;
ALTER TABLE players ADD COLUMN roster_name text;

-- "Ann Smith" -> "Ann S.", "Mary Jane Watson" -> "Mary J. W.", "Bo" -> "Bo".
CREATE FUNCTION initials_name(full_name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT w[1] || coalesce((SELECT string_agg(' ' || left(x, 1) || '.', '' ORDER BY i)
                               FROM unnest(w[2:]) WITH ORDINALITY AS u (x, i)), '')
      FROM (SELECT regexp_split_to_array(btrim(full_name), '\s+') AS w) AS words
$$;

-- The roster members so far: their clubs keep their names from the public, as every club does now.
UPDATE players SET roster_name = name, name = initials_name(name) WHERE roster_club_id IS NOT NULL;
UPDATE standings s SET player = p.name FROM players p WHERE p.id = s.player_id AND p.roster_name IS NOT NULL;
