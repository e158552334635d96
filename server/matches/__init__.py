"""Matches: head-to-head and small pools on one deal, asked for and seated at once (docs/matches.md)."""
