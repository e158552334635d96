"""Knockout brackets: a bracket seeded by rating at its opening, rounds of head-to-head games started
together, a champion (docs/matches.md, Knockout brackets)."""
