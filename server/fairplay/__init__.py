"""Fair play: the commitment to each deal, limits per client address against throwaway accounts,
and the organiser's integrity report (shared addresses, undo peeks, scouting entries)."""
