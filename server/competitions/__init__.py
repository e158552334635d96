"""Competitions that add up over tournaments and deals: series (a season's table), team battles
between clubs, ratings per game, practice on a finished deal, and the analysis of a finished game."""
