"""How a rating is said to people (docs/competitions.md, Ratings): one whole number on a plain
scale, and whether it is still provisional. The stored numbers (OpenSkill's mean and uncertainty)
stay as they are; only what is shown is scaled.

The number shown is ``1000 + 40 x (mean - 3 x uncertainty)``, rounded: a new player shows 1,000,
and a rating rises as results confirm a player is strong. A rating is provisional while the player
has fewer than ``PROVISIONAL_GAMES`` rated games in that game."""

from __future__ import annotations

BASE = 1000  # a new player's shown rating
STEP = 40  # shown points per unit of the model's cautious estimate
PROVISIONAL_GAMES = 5  # fewer rated games than this in a game: the rating there is provisional


def shown(estimate: float) -> int:
    """The displayed rating of the model's cautious estimate (``mu - 3 sigma``)."""
    return round(BASE + STEP * estimate)


def shown_of(mu: float, sigma: float) -> int:
    return shown(mu - 3 * sigma)


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
