"""Tournaments: creating them (with certified deals), joining, the organiser's actions, schedules,
the clock that opens, closes and finishes them, the standings, replays and par after the finish."""
