"""SQL expressions about the shared tables that several domains read."""

from __future__ import annotations

# A tournament's status (alias ``t``), from its times and marks.
STATUS_SQL = """CASE WHEN t.cancelled_at IS NOT NULL THEN 'cancelled'
                     WHEN t.finished_at IS NOT NULL THEN 'finished'
                     WHEN now() < t.opens_at THEN 'scheduled'
                     WHEN now() < t.closes_at THEN 'open'
                     ELSE 'closing' END"""

# A tournament (alias ``t``) that no tournament route, list, board or socket shows: a match's
# (docs/matches.md) until it is over, a bracket's game until its bracket is over (a round's deal stays
# unknown to the players of later rounds), and a bracket itself (read through /api/brackets). Their
# players see their own game on the play socket only.
HIDDEN_SQL = """(t.kind = 'bracket' OR (t.kind = 'match' AND t.finished_at IS NULL)
                 OR (t.kind = 'bracket_game'
                     AND (SELECT b.finished_at IS NULL FROM tournaments b WHERE b.id = t.parent_id)))"""

# Ranking of docs/rules.md (entries aliased ``e``): higher score first, then more time remaining at the
# end, then the earlier entry. Running games count as 0 seconds remaining until they end.
RANK_ORDER = """coalesce(e.final_score, e.score) DESC,
                CASE WHEN e.status = 'playing' THEN 0 ELSE coalesce(e.time_left, 0) END DESC, e.ordinal"""
