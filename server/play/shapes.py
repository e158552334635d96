"""The engine's moves and views as the play websocket's messages, and times as it sends them."""

from __future__ import annotations

from datetime import UTC, datetime

from spidertour.engine import Deal, End, Move, MoveCards, Undo

from . import messages as p
from .live import LiveGame


def engine_move(msg: p.PlayMessage) -> Move:
    if type(msg) is p.PlayMove:
        return MoveCards(msg.from_, msg.count, msg.to)
    if type(msg) is p.PlayDeal:
        return Deal(msg.pile)
    if type(msg) is p.PlayUndo:
        return Undo()
    return End()


def view_of(live: LiveGame) -> p.View:
    assert live.game is not None
    v = live.game.view()
    piles = v.pop("draw_piles", None)
    return p.View(**v, draw_piles=None if piles is None else [p.DrawPile(**d) for d in piles])


def dt(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
