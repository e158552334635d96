-- Pupils: the accounts a club's roster made (docs/accounts.md).
--
-- ``roster_club_id``: the club whose roster made the account. Only its organisers replace the
-- account's sign-in code; a club the member joined later by invite does not. ``profile_public``:
-- false keeps the player's profile (GET /api/players/{id}) to itself and its clubs; a roster makes
-- its accounts private, and the member or the club that made it may make it public.
ALTER TABLE players ADD COLUMN roster_club_id bigint REFERENCES clubs (id);
ALTER TABLE players ADD COLUMN profile_public boolean NOT NULL DEFAULT true;

-- The accounts made by a roster so far: those with a sign-in code. Their roster made their first
-- membership in the same transaction, so their first club is the one that made them.
UPDATE players p
   SET roster_club_id = (SELECT m.club_id FROM club_members m WHERE m.player_id = p.id
                          ORDER BY m.joined_at, m.club_id LIMIT 1),
       profile_public = false
 WHERE p.code_hash IS NOT NULL;
