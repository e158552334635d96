"""Properties of random play, in every game and every setting.

A seeded random player mostly picks among ``legal_moves()`` (often a move that builds a suit or
turns a card) and now and then tries an undo, a deal of any pile, an end, or a card move made up
at random (usually illegal). Half the games start from a seed's deal, half from a position rich
in long same-suit runs, where sequences come home and games are won. Each test follows one
property along the whole game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spidertour.engine import Deal, End, EngineError, Game, Move, MoveCards, Settings, Undo, move_from_json
from spidertour.engine.cards import RANKS, SUITS, card_text, ordered_deck
from spidertour.engine.deals.variation import Renaming
from spidertour.engine.replay import replay_game

GAMES = [
    ("spider78", 1),
    ("spider78", 2),
    ("spider", 1),
    ("spider", 2),
    ("spider", 4),
    ("huge_spider", 1),
    ("huge_spider", 2),
    ("huge_spider", 4),
    ("black_widow", 1),
    ("black_widow", 2),
    ("black_widow", 4),
    ("curds_and_whey", 4),
]


def make_settings(
    game: tuple[str, int],
    free: bool,
    undo: bool,
    limit: int | None,
    choice: bool,
    tops: bool,
    time_limit: int,
    final: bool,
) -> Settings:
    return Settings(
        variant=game[0],
        suits=game[1],
        free_column=free,
        undo=undo,
        undo_limit=limit,
        draw_pile_choice=choice,
        draw_pile_tops_up=tops,
        time_limit=time_limit,
        reveals_final=final,
    )


any_settings = st.builds(
    make_settings,
    st.sampled_from(GAMES),
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(0, 3),
    st.booleans(),
    st.booleans(),
    st.sampled_from([40, 600]),
    st.booleans(),
)
PROPERTY = settings(max_examples=50, deadline=None)
STEPS = 80


def strip_undos(position: str) -> str:
    """A position without its undo counter: an undo restores everything but that."""
    fields = position.split(" ")
    del fields[5]
    return " ".join(fields)


def same_move(move: Any, game: Game) -> Any:
    """Deal() and a Deal naming the next pile are one and the same move when piles go in order."""
    if isinstance(move, Deal) and game.piles is not None and not game.settings.draw_pile_choice:
        following = next((p for p, cards in enumerate(game.piles) if cards), None)
        if move.pile == following:
            return Deal()
    return move


@dataclass
class Step:
    move: Any
    t: float | None
    accepted: bool
    before: str
    after: str
    legal: set[Any]  # legal_moves() before the move, as same_move writes them
    listed_as: Any  # the move as same_move writes it, before it was played
    result: Any = None
    code: str | None = None  # why it was refused


@dataclass
class RandomPlay:
    """Play ``steps`` random moves; ``each(game, step)`` is called after every move tried."""

    settings: Settings
    seed: str
    rnd: random.Random
    start: str | None = None  # a position to start from instead of the seed's deal
    positions: bool = False  # write Step.before and Step.after (costs a little)
    log: list[Step] = field(default_factory=list, repr=False)

    def new_game(self) -> Game:
        if self.start is not None:
            return Game.from_position(self.settings, self.start)
        return Game(self.settings, self.seed)

    def candidate(self, game: Game, legal: list[Any]) -> Any:
        roll = self.rnd.random()
        width = len(game.columns)
        if roll < 0.45:
            good = [m for m in legal if isinstance(m, MoveCards) and builds(game, m)]
            if good:
                return self.rnd.choice(good)
        if roll < 0.7 and legal:
            return self.rnd.choice(legal)
        if roll < 0.8:
            return Undo()
        if roll < 0.83:
            return Deal(self.rnd.choice([None, 0, 1, 2, 3, 4, 5]))
        if roll < 0.832:
            return End()
        return MoveCards(self.rnd.randrange(width + 1), self.rnd.randint(1, 6), self.rnd.randrange(width + 1))

    def run(self, each: Callable[[Game, Step], None] | None = None) -> Game:
        game = self.new_game()
        t = 0.0
        for _ in range(STEPS):
            legal = list(game.legal_moves())
            move = self.candidate(game, legal)
            when: float | None = None
            if self.rnd.random() < 0.8:  # else the move's time is left out: the last one holds
                t += self.rnd.uniform(0, 1.2)
                when = round(t, 3)
            before = game.position() if self.positions else ""
            listed = {same_move(m, game) for m in legal}
            listed_as = same_move(move, game)
            try:
                result = game.play(move, when)
            except EngineError as err:
                step = Step(move, when, False, before, "", listed, listed_as, code=err.code)
            else:
                step = Step(move, when, True, before, "", listed, listed_as, result)
            if self.positions:
                step.after = game.position()
            self.log.append(step)
            if each is not None:
                each(game, step)
        return game


def builds(game: Game, move: MoveCards) -> bool:
    """Does the move put a group on the same suit one rank higher, or turn a card?"""
    src, dst = game.columns[move.src], game.columns[move.dst]
    turns = move.count == len(src) - game.down[move.src] and game.down[move.src] > 0
    return turns or (bool(dst) and dst[-1] == src[-move.count] + 1)


def rich_start(s: Settings, rnd: random.Random) -> str:
    """A position where a few whole suits lie at the ends of columns, each cut in two runs
    (King down to some card, the rest down to the Ace): one move brings a sequence home. Half
    the time every other suit is already gone as removed sequences, so the game can be won."""
    rules = s.rules
    width = rules.columns
    pool = Counter(ordered_deck(rules.deck_size, s.suits or 1))

    def take_a_suit() -> list[int]:
        suit = rnd.choice(sorted({c >> 4 for c in pool if all(pool[(c & ~15) + r] for r in range(13))}))
        run = [suit * 16 + r for r in range(12, -1, -1)]
        pool.subtract(run)
        return run

    tails: list[list[int]] = []
    sets = rnd.randint(1, min(rules.sequences_to_win, width // 2))
    for _ in range(sets):
        run = take_a_suit()
        cut = rnd.randint(1, 12)
        tails += [run[:cut], run[cut:]]
    removed = rnd.choice([0, rules.sequences_to_win - sets])
    for _ in range(removed):
        take_a_suit()
    pool = +pool
    rest = sorted(pool.elements())
    rnd.shuffle(rest)
    reserve = "-"
    if rules.draw_piles:
        piles = [rest[i : i + width] for i in range(0, min(len(rest) // width, rules.draw_piles) * width, width)]
        del rest[: len(piles) * width]
        reserve = "p:" + ",".join(cards_text(p, 0) for p in piles + [[]] * (rules.draw_piles - len(piles)))
    elif rules.has_stock:
        rows = min(max(0, len(rest) - width) // width, 5)
        reserve = "s:" + cards_text(rest[: rows * width], 0)
        del rest[: rows * width]
    columns: list[list[int]] = [[] for _ in range(width)]
    ups = [0] * width
    for c, tail in zip(rnd.sample(range(width), len(tails)), tails, strict=True):
        columns[c] = list(tail)
        ups[c] = len(tail)
    for c in range(width):  # every other column gets a face-up card while cards last
        if not columns[c] and rest:
            columns[c] = [rest.pop()]
            ups[c] = 1
    for i, card in enumerate(rest):  # the rest face down beneath, round the columns
        columns[i % width].insert(0, card)
    texts = [cards_text(col, 0 if rules.all_face_up else len(col) - up) for col, up in zip(columns, ups, strict=True)]
    texts += ["-"] * (len(Game(s).columns) - width)  # the free column, empty
    return f"{'/'.join(texts)} {reserve} 0 {removed} 0 0 play"


def cards_text(cards: list[int], down: int) -> str:
    if not cards:
        return "-"
    return "".join(card_text(c).lower() if i < down else card_text(c) for i, c in enumerate(cards))


@st.composite
def plays(draw: st.DrawFn, positions: bool = False) -> RandomPlay:
    s = draw(any_settings)
    seed = draw(st.text(max_size=12))
    rnd = random.Random(draw(st.integers(0, 2**32)))  # the random player's own seed
    start = rich_start(s, rnd) if draw(st.booleans()) else None
    return RandomPlay(s, seed, rnd, start, positions)


# ------------------------------------------------------------------ the properties


def cards_everywhere(game: Game) -> Counter[int]:
    have = Counter(c for col in game.columns for c in col)
    for pile in game.piles or []:
        have.update(pile)
    have.update(game.stock or [])
    return have


@PROPERTY
@given(plays())
def test_no_card_is_created_or_lost(play: RandomPlay) -> None:
    s = play.settings
    deck = Counter(ordered_deck(s.rules.deck_size, s.suits or 1))

    def check(game: Game, step: Step) -> None:
        have = cards_everywhere(game)
        assert sum(have.values()) + 13 * game.sequences == s.rules.deck_size
        assert not have - deck
        assert game.score == 25 * game.reveals + 100 * game.sequences
        assert all(0 <= d < len(c) or (d == 0 and not c) for c, d in zip(game.columns, game.down, strict=True))

    play.run(check)


@PROPERTY
@given(plays(positions=True))
def test_undo_restores_the_position_exactly(play: RandomPlay) -> None:
    """A model of the rules' undo: a stack of positions, emptied by deals and completed sequences,
    and with ``reveals_final`` by every move that turns a card."""
    s = play.settings
    stack: list[str] = []
    undos = 0

    def allowed(game: Game) -> bool:
        return s.undo and (s.undo_limit is None or undos < s.undo_limit) and bool(stack) and not game.over

    def check(game: Game, step: Step) -> None:
        nonlocal undos
        if isinstance(step.move, Undo):
            assert step.accepted == allowed(game)  # an undo never ends a game: game.over is as before
            if step.accepted:
                assert strip_undos(game.position()) == strip_undos(stack.pop())
                undos += 1
        elif step.accepted and s.reveals_final and isinstance(step.move, MoveCards) and step.result.revealed:
            stack.clear()
        elif step.accepted and isinstance(step.move, MoveCards) and not step.result.completed:
            stack.append(step.before)
        elif step.accepted:  # a deal, a completed sequence, an end
            stack.clear()
        if game.over:
            stack.clear()
        assert game.undos_used == undos
        assert game.can_undo == allowed(game)

    play.run(check)


def card_strings(value: Any, found: list[str]) -> list[str]:
    """Every string in a view that names a card."""
    if isinstance(value, str):
        if len(value) == 2 and value[0] in RANKS and value[1] in SUITS:
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            card_strings(item, found)
    elif isinstance(value, list):
        for item in value:
            card_strings(item, found)
    return found


@PROPERTY
@given(plays())
def test_view_never_shows_a_hidden_card(play: RandomPlay) -> None:
    s = play.settings

    def check(game: Game, step: Step) -> None:
        view = game.view()
        visible: Counter[str] = Counter()
        for shown, col, down in zip(view["columns"], game.columns, game.down, strict=True):
            assert shown == ["??"] * down + [card_text(c) for c in col[down:]]
            visible.update(card_text(c) for c in col[down:])
        if game.piles is not None:
            for shown_pile, pile in zip(view["draw_piles"], game.piles, strict=True):
                assert shown_pile["count"] == len(pile)
                top = card_text(pile[0]) if pile and s.draw_pile_tops_up else None
                assert shown_pile["top"] == top
                if top:
                    visible[top] += 1
        if game.stock is not None:
            assert view["stock"] == len(game.stock)
        assert not Counter(card_strings(view, [])) - visible  # no card named anywhere else in the view

    play.run(check)


@PROPERTY
@given(plays(positions=True))
def test_rejected_move_changes_nothing(play: RandomPlay) -> None:
    views: list[dict[str, Any]] = [play.new_game().view()]

    def check(game: Game, step: Step) -> None:
        view = game.view()
        if not step.accepted:
            if step.after == step.before:
                assert view == views[-1]
            else:  # the clock ran out first: the game ended by time, nothing else changed
                assert game.outcome == "timed_out" and step.before.endswith(" play")
                assert strip_state(step.after) == strip_state(step.before)
                assert view["columns"] == views[-1]["columns"] and view["score"] == views[-1]["score"]
        views.append(view)

    play.run(check)


def strip_state(position: str) -> str:
    return " ".join(position.split(" ")[:-1])


@PROPERTY
@given(plays())
def test_replaying_the_moves_gives_the_same_game(play: RandomPlay) -> None:
    s = play.settings
    game = play.run()
    again = play.new_game()
    for step in play.log:
        try:
            again.play(step.move, step.t)
        except EngineError:
            assert not step.accepted
        else:
            assert step.accepted
    assert again.position() == game.position()
    assert (again.score, again.final_score) == (game.score, game.final_score)
    # The same through the replay verifier, from JSON, when the game began with a seed's deal.
    assert all(move_from_json(step.move.to_json()) == step.move for step in play.log)
    if play.start is not None:
        return
    moves = [{**step.move.to_json(), **({} if step.t is None else {"t": step.t})} for step in play.log]
    out = replay_game({**s.to_json(), "seed": play.seed, "moves": moves})
    assert [st["ok"] for st in out["steps"]] == [step.accepted for step in play.log]
    assert out["final_score"] == game.final_score
    last = out["steps"][-1] if out["steps"] else out["initial"]
    assert {k: v for k, v in last.items() if k not in ("ok", "error", "code")} == game.view()


@PROPERTY
@given(plays())
def test_notation_round_trips(play: RandomPlay) -> None:
    s = play.settings

    def check(game: Game, step: Step) -> None:
        text = game.position()
        again = Game.from_position(s, text)
        assert again.position() == text
        assert again.view() == {**game.view(), "can_undo": False}
        assert again.score == game.score and again.final_score == game.final_score
        assert list(again.legal_moves()) == list(game.legal_moves())

    play.run(check)


@PROPERTY
@given(plays())
def test_legal_moves_are_exactly_the_accepted_moves(play: RandomPlay) -> None:
    def accepted(game: Game, move: Any) -> bool:
        try:
            game.copy().play(move)
        except EngineError:
            return False
        return True

    count = 0

    def check(game: Game, step: Step) -> None:
        nonlocal count
        count += 1
        if step.accepted and not isinstance(step.move, Undo | End):
            assert step.listed_as in step.legal  # accepted -> listed
        legal = list(game.legal_moves())
        assert len(set(legal)) == len(legal)
        for move in play.rnd.sample(legal, min(4, len(legal))):  # listed -> accepted
            assert accepted(game, move), move
        if count % 8 == 0 and not game.over:  # every card move and deal there could be
            width = len(game.columns)
            # Counts up to one more than the face-up cards: every longer one fails the same way.
            ups = [len(c) - d for c, d in zip(game.columns, game.down, strict=True)]
            every: list[Move] = [
                MoveCards(src, n, dst) for src in range(width) for n in range(1, ups[src] + 2) for dst in range(width)
            ]
            every += [Deal(), *(Deal(p) for p in range(6))]
            listed = {same_move(m, game) for m in legal}
            for move in every:
                assert accepted(game, move) == (same_move(move, game) in listed), move

    play.run(check)


@PROPERTY
@given(plays(), st.integers(1, 10**6), st.booleans())
def test_a_renamed_deal_plays_exactly_as_the_base_deal(play: RandomPlay, entry: int, final: bool) -> None:
    """docs/deal.md section 6: the base game's moves, mapped, play the same game on the entry's deal.

    At every step both games accept or refuse alike (for the same reason), have the same score,
    outcome and undo state, list the same legal moves, and the entry's board is the base board
    renamed (``Renaming.game``), reserve and face-down cards included."""
    base_settings = replace(play.settings, reveals_final=final)
    entry_settings = replace(base_settings, deal_variation=True)
    play = RandomPlay(base_settings, play.seed, play.rnd, play.start)
    renaming = Renaming.of(entry_settings, play.seed, entry)
    if play.start is None:
        renamed = Game(entry_settings, play.seed, entry)
        suffix = f" e{entry}"
    else:
        renamed = renaming.game(Game.from_position(base_settings, play.start))
        suffix = ""
    assert renamed.position() == renaming.game(play.new_game()).position() + suffix

    def check(game: Game, step: Step) -> None:
        try:
            renamed.play(renaming.move(step.move), step.t)
        except EngineError as err:
            assert not step.accepted and err.code == step.code
        else:
            assert step.accepted
        assert renamed.position() == renaming.game(game).position() + suffix
        assert renamed.view() == renaming.view(game)
        assert (renamed.score, renamed.outcome, renamed.final_score) == (game.score, game.outcome, game.final_score)
        legal = set(game.legal_moves())
        assert set(renamed.legal_moves()) == {renaming.move(m) for m in legal}
        assert {renaming.move_back(m) for m in renamed.legal_moves()} == legal

    play.run(check)
