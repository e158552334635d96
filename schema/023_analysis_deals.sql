-- The analysis of each deal of a game of several deals (docs/competitions.md "Analysis"): an entry
-- of a tournament of several deals has one game on each deal, analysed on its own. ``deal`` is 1
-- for a tournament of one deal (every analysis so far) and for a practice game (its one deal is
-- the entry's own ``deal``).
ALTER TABLE analyses ADD COLUMN deal integer NOT NULL DEFAULT 1 CHECK (deal >= 1);
ALTER TABLE analyses DROP CONSTRAINT analyses_pkey;
ALTER TABLE analyses ADD PRIMARY KEY (entry_id, deal);

ALTER TABLE analysis_claims ADD COLUMN deal integer NOT NULL DEFAULT 1 CHECK (deal >= 1);
ALTER TABLE analysis_claims DROP CONSTRAINT analysis_claims_pkey;
ALTER TABLE analysis_claims ADD PRIMARY KEY (entry_id, deal);
