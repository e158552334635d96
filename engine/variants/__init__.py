"""The five games, each a small declaration over the shared mechanisms (docs/rules.md "The five games")."""

from __future__ import annotations

from dataclasses import dataclass

from . import rules


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    deck_size: int
    suits_allowed: tuple[int, ...]
    default_suits: int
    layout: tuple[int, ...]  # cards dealt to each column, left to right
    all_face_up: bool  # curds_and_whey deals every card face up
    draw_piles: int  # spider78: how many draw piles (each as large as the layout is wide)
    has_stock: bool  # stock games: the rest of the deck, dealt a row at a time
    sequences_to_win: int
    group: rules.GroupRule
    accepts: rules.AcceptRule
    empty_takes_king_only: bool  # an empty dealt column accepts only a group headed by a King
    deal_onto_empty: bool  # may a deal happen while a dealt column is empty
    free_column_default: bool

    @property
    def columns(self) -> int:
        return len(self.layout)


def _spider_layout(first: int, six: int, rest: int, low: int) -> tuple[int, ...]:
    return (first,) * six + (low,) * rest


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            name="spider78",
            deck_size=78,
            suits_allowed=(1, 2),
            default_suits=2,
            layout=_spider_layout(5, 6, 2, 4),
            all_face_up=False,
            draw_piles=5,
            has_stock=False,
            sequences_to_win=6,
            group=rules.suit_run,
            accepts=rules.one_rank_higher,
            empty_takes_king_only=False,
            deal_onto_empty=True,
            free_column_default=True,
        ),
        Variant(
            name="spider",
            deck_size=104,
            suits_allowed=(1, 2, 4),
            default_suits=4,
            layout=_spider_layout(6, 4, 6, 5),
            all_face_up=False,
            draw_piles=0,
            has_stock=True,
            sequences_to_win=8,
            group=rules.suit_run,
            accepts=rules.one_rank_higher,
            empty_takes_king_only=False,
            deal_onto_empty=False,
            free_column_default=False,
        ),
        Variant(
            name="huge_spider",
            deck_size=208,
            suits_allowed=(1, 2, 4),
            default_suits=4,
            layout=_spider_layout(6, 8, 12, 5),
            all_face_up=False,
            draw_piles=0,
            has_stock=True,
            sequences_to_win=16,
            group=rules.suit_run,
            accepts=rules.one_rank_higher,
            empty_takes_king_only=False,
            deal_onto_empty=False,
            free_column_default=False,
        ),
        Variant(
            name="black_widow",
            deck_size=104,
            suits_allowed=(1, 2, 4),
            default_suits=4,
            layout=_spider_layout(6, 4, 6, 5),
            all_face_up=False,
            draw_piles=0,
            has_stock=True,
            sequences_to_win=8,
            group=rules.rank_run,
            accepts=rules.one_rank_higher,
            empty_takes_king_only=False,
            deal_onto_empty=False,
            free_column_default=False,
        ),
        Variant(
            name="curds_and_whey",
            deck_size=52,
            suits_allowed=(4,),
            default_suits=4,
            layout=(4,) * 13,
            all_face_up=True,
            draw_piles=0,
            has_stock=False,
            sequences_to_win=4,
            group=rules.suit_run_or_same_rank,
            accepts=rules.suit_higher_or_same_rank,
            empty_takes_king_only=True,
            deal_onto_empty=False,
            free_column_default=False,
        ),
    )
}
