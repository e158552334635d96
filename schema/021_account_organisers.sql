-- Organisers who sign in (docs/organising.md): an organiser may be an account. ``player_id`` links
-- the organiser to the account whose ordinary sessions carry its rights; such an organiser has no
-- token of its own (``token_hash`` NULL). One account is one organiser at most: made again after a
-- revocation, the same row comes back (what it ran is its own again; its stopped schedules stay
-- stopped). Every organiser so far is a token organiser, linked to no account.
ALTER TABLE organisers ADD COLUMN player_id bigint UNIQUE REFERENCES players (id);
ALTER TABLE organisers ALTER COLUMN token_hash DROP NOT NULL;
ALTER TABLE organisers ADD CONSTRAINT organisers_token_or_account CHECK (token_hash IS NOT NULL OR player_id IS NOT NULL);
