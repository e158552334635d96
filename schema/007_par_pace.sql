-- The par is played at a stated human pace; in_time says whether its line, at that pace, wins before
-- the time limit (else its final_score is what the line reaches when time runs out). Pars stored
-- before keep their pace; in_time is worked out from their line's length, pace and time limit.

ALTER TABLE pars ADD COLUMN in_time boolean NOT NULL DEFAULT false;

UPDATE pars p
   SET in_time = p.outcome = 'won'
       AND jsonb_array_length(p.moves) * p.pace < COALESCE((t.settings->>'time_limit')::double precision, 600)
  FROM tournaments t
 WHERE t.id = p.tournament_id;
