"""The play websocket's messages, both ways (docs/protocol.md describes them with examples)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType, field

from ..lib.messages import Error, Pong

Index = Annotated[int, Meta(ge=0, le=1000)]
Seq = Annotated[int, Meta(ge=1, le=2**53 - 1)]  # a JavaScript number holds it exactly


# ----------------------------------------------------------------------------- play websocket: client -> server


class Auth(Struct, tag="auth", forbid_unknown_fields=True):
    """First message on a play connection: the player's token."""

    token: Annotated[str, Meta(max_length=200)]


class Start(Struct, tag="start", forbid_unknown_fields=True):
    """Start the game: the server's clock starts now."""


class PlayMove(Struct, tag="move", forbid_unknown_fields=True):
    """A card move (docs/rules.md), with the client's sequence number."""

    seq: Seq
    from_: Index = field(name="from")
    count: Annotated[int, Meta(ge=1, le=1000)]
    to: Index


class PlayDeal(Struct, tag="deal", forbid_unknown_fields=True):
    seq: Seq
    pile: Index | None = None


class PlayUndo(Struct, tag="undo", forbid_unknown_fields=True):
    seq: Seq


class PlayEnd(Struct, tag="end", forbid_unknown_fields=True):
    seq: Seq


class Sync(Struct, tag="sync", forbid_unknown_fields=True):
    """Ask for the whole state again (after a reconnect the server sends it unasked)."""


class Ping(Struct, tag="ping", forbid_unknown_fields=True):
    pass


ClientMessage = Auth | Start | PlayMove | PlayDeal | PlayUndo | PlayEnd | Sync | Ping
PlayMessage = PlayMove | PlayDeal | PlayUndo | PlayEnd


# ----------------------------------------------------------------------------- play websocket: server -> client


class DrawPile(Struct):
    count: int
    top: str | None  # null when tops are not shown, or the pile is empty


class View(Struct, omit_defaults=True):
    """What the player sees. Face-down cards are "??"."""

    variant: str
    columns: list[list[str]]
    free_column: int | None
    score: int
    sequences: int
    sequences_to_win: int
    reveals: int
    over: bool
    outcome: Literal["won", "ended", "timed_out"] | None
    free_column_used: bool
    can_undo: bool
    undos_used: int
    draw_piles: list[DrawPile] | None = None
    stock: int | None = None
    deals_left: int | None = None
    time_left: int | None = None
    time_bonus: int | None = None
    free_column_bonus: int | None = None
    final_score: int | None = None


class State(Struct, tag="state"):
    """The whole state of the player's entry: sent after auth, on sync, and on start."""

    entry_id: int
    tournament_id: int
    status: str
    time_limit: int
    last_seq: int
    moves: int
    view: View | None = None  # null until the game has started
    started_at: datetime | None = None
    deadline: datetime | None = None
    time_left: float | None = None  # seconds on the server's clock
    starts_at: datetime | None = None  # start "together": when the server starts every game (while waiting)
    practice: bool | UnsetType = UNSET  # true on a practice entry (after the finish, unranked); absent otherwise
    # A practice game once over: where it would have ranked and the par, as its ``over`` said (absent otherwise).
    would_rank: WouldRank | UnsetType = UNSET
    par: ParSummary | UnsetType | None = UNSET
    match_id: int | UnsetType = UNSET  # a match's seat: its match (docs/matches.md); absent otherwise
    # Several deals (setting "deals" > 1; left out otherwise): the deal played now or last (1, 2, ...),
    # of how many, and the running total (the final scores of the deals over, plus the current score).
    # Start "together": starts_at is also when the next deal starts, while the last one is over.
    deal: int | UnsetType = UNSET
    deals: int | UnsetType = UNSET
    total: int | UnsetType = UNSET


class ViewFields(Struct, omit_defaults=True):
    """The fields of the view a move may change, all but the columns (see ``View``)."""

    score: int
    sequences: int
    reveals: int
    over: bool
    outcome: Literal["won", "ended", "timed_out"] | None
    free_column_used: bool
    can_undo: bool
    undos_used: int
    draw_piles: list[DrawPile] | None = None  # after a deal or an undo only
    stock: int | None = None
    deals_left: int | None = None
    time_left: int | None = None
    time_bonus: int | None = None
    free_column_bonus: int | None = None
    final_score: int | None = None


class Result(Struct, tag="result"):
    """A move was accepted and committed. It carries what changed: the view after the move is the
    view before it with ``columns[i]`` replacing column ``changed[i]`` and ``fields`` merged in."""

    seq: int
    n: int  # the server's number for this move (1, 2, ...)
    move: dict[str, Any]
    changed: list[int]  # columns whose cards changed
    columns: list[list[str]]  # their cards now, in the order of ``changed``
    fields: ViewFields
    revealed: int
    completed: int
    time_left: float
    repeated: bool = False  # true when this answers a resent sequence number


class WouldRank(Struct):
    """Where a practice game's final score would have placed: ``rank`` of ``of``, ``of`` counting the
    tournament's ranked entrants and this game (ties go to the ranked entrant, the earlier entry)."""

    rank: int
    of: int


class ParSummary(Struct):
    """A finished tournament's par, as its page shows it (the solver's line on the deal)."""

    outcome: Literal["won", "not found within budget", "proven lost"]
    final_score: int | None
    moves: int
    pace: float
    in_time: bool


class Over(Struct, tag="over"):
    """The game is over: won, ended early, or out of time. A practice game's also says where it would
    have ranked and the tournament's par (null when there is none); the fields are absent otherwise."""

    outcome: Literal["won", "ended", "timed_out"]
    score: int
    time_left: int
    time_bonus: int
    free_column_bonus: int
    final_score: int
    would_rank: WouldRank | UnsetType = UNSET
    par: ParSummary | UnsetType | None = UNSET
    # Several deals (left out with one): which deal ended, of how many, and the total so far.
    deal: int | UnsetType = UNSET
    deals: int | UnsetType = UNSET
    total: int | UnsetType = UNSET


ServerMessage = State | Result | Over | Error | Pong

client_decoder = msgspec.json.Decoder(ClientMessage)


def decode(data: str | bytes, limit: int) -> ClientMessage | str:
    """A client's message, or why it is refused (too large, not JSON, not a message)."""
    size = len(data)
    if size > limit:
        return f"message too large: {size} bytes (the limit is {limit})"
    try:
        message: ClientMessage = client_decoder.decode(data)
    except msgspec.ValidationError as err:
        return f"invalid message: {err}"
    except msgspec.DecodeError as err:
        if "UTF-8" in str(err):  # msgspec's word for it (older releases raised UnicodeDecodeError)
            return "malformed JSON: the message is not valid UTF-8"
        return f"malformed JSON: {err}"
    except UnicodeDecodeError:
        return "malformed JSON: the message is not valid UTF-8"
    return message


__all__ = ["Error", "Pong"]
