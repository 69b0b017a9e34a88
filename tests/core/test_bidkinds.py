"""Bid kinds (:mod:`liarsdice.bidkinds`): the baseline's count, a variant's own kind through
``liarsdice_bid_kind``, two kinds at one table refused, and a kind without a distribution priced
by sampling."""

from __future__ import annotations

import types
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import pytest

from liarsdice import COUNT_OF_FACE, Bid, BidKind, Ruleset, hookimpl, odds
from liarsdice.errors import BadHookResult, Conflict
from liarsdice.i18n import Text, render
from liarsdice.models import RankKey
from liarsdice_pip_sum import PIP_TOTAL


class HighestDie(BidKind):
    """'The highest die on the table shows at least ``quantity``': no distribution given."""

    name = "highest"
    fields = ("pips",)
    names_faces = False

    def bids(self, dice_in_play: int) -> Iterable[Bid]:
        return (Bid(pips, 0) for pips in range(1, 7))

    def shape_problem(self, bid: Bid, dice_in_play: int) -> Text | None:
        return None if bid.face == 0 and 1 <= bid.quantity <= 6 else Text("not a highest die")

    def value(self, bid: Bid, dice: Iterable[int], matching: Collection[int]) -> int:
        return max(dice)

    def words(self, bid: Bid) -> Text:
        return Text("a highest die of {n}", {"n": bid.quantity})


def kind_plugin(factory: Callable[..., types.ModuleType], name: str, kind: Any) -> Any:
    @hookimpl
    def liarsdice_bid_kind() -> Any:
        return kind

    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> RankKey:
        return (bid.quantity, bid.face)

    return factory(name, liarsdice_bid_kind, liarsdice_bid_rank)


def test_the_baseline_plays_counts_of_a_face(dice_loss_rules: Ruleset) -> None:
    assert dice_loss_rules.bid_kind is COUNT_OF_FACE
    assert render(COUNT_OF_FACE.words(Bid(3, 4)), "uk") == "3 четвірки"
    assert COUNT_OF_FACE.value(Bid(2, 4), [4, 1, 4, 6], frozenset({1, 4})) == 3


def test_two_variants_playing_different_kinds_conflict(
    install_plugins: Callable[[Mapping[str, Any]], None],
    plugin_factory: Callable[..., types.ModuleType],
) -> None:
    install_plugins({"highest": kind_plugin(plugin_factory, "highest", HighestDie())})
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["dice-loss", "highest", "pip-sum"], {"standard.wild_ones": False})
    said = str(refused.value)
    assert "plays bids of kind 'highest'" in said or "plays bids of kind 'pips'" in said
    assert "a table plays one kind of bid" in said


def test_a_kind_that_is_not_a_bid_kind_names_the_plugin(
    install_plugins: Callable[[Mapping[str, Any]], None],
    plugin_factory: Callable[..., types.ModuleType],
) -> None:
    install_plugins({"sloppy": kind_plugin(plugin_factory, "sloppy", "pips")})
    with pytest.raises(BadHookResult, match=r"sloppy's liarsdice_bid_kind .*a BidKind or None"):
        Ruleset.build(["dice-loss", "sloppy"])


def test_a_kind_without_a_distribution_is_priced_by_sampling(
    install_plugins: Callable[[Mapping[str, Any]], None],
    plugin_factory: Callable[..., types.ModuleType],
) -> None:
    install_plugins({"highest": kind_plugin(plugin_factory, "highest", HighestDie())})
    rules = Ruleset.build(["dice-loss", "highest"])
    from liarsdice import Game

    game = Game(rules, ["Ann", "Ben"], dice_per_player=2)
    game.start_round({"Ann": [2, 3], "Ben": [1, 1]})
    look = odds.bid_chances(rules, game.state, Bid(6, 0), (2, 3), 2)
    assert isinstance(look, odds.ValueOutlook) and look.method == "sampled"
    # a six among 2 unseen dice: 1 - (5/6)^2 = 11/36
    assert look.at_least(6) == pytest.approx(11 / 36, abs=0.01)
    assert look.at_least(3) == 1.0
    again = odds.bid_chances(rules, game.state, Bid(6, 0), (3, 2), 2)
    assert again == look  # seeded: the same figures every time


def test_the_count_keeps_its_exact_outlook(dice_loss_rules: Ruleset) -> None:
    from liarsdice import Game

    game = Game(dice_loss_rules, ["Ann", "Ben"], dice_per_player=2)
    game.start_round({"Ann": [2, 1], "Ben": [5, 5]})
    look = odds.bid_chances(dice_loss_rules, game.state, Bid(3, 2), (2, 1), 2)
    assert isinstance(look, odds.Outlook)
    assert look.at_least(3) == pytest.approx(odds.at_least(3, 2, 2 / 6, 2))


def test_pip_total_is_a_bid_kind() -> None:
    assert isinstance(PIP_TOTAL, BidKind) and not PIP_TOTAL.names_faces


def test_the_odds_page_of_a_kind_lists_every_bid_and_its_method() -> None:
    from liarsdice.kindodds import kind_odds

    rules = Ruleset.build(["pip-sum", "dice-loss"])
    page = kind_odds(rules, 3, (6,))
    assert page.method == "exact" and page.unknown == 2
    assert [row.bid for row in page.rows] == [Bid(total, 0) for total in range(3, 19)]
    by_total = {row.bid.quantity: row for row in page.rows}
    assert by_total[8].at_least == 1.0  # 6 seen, the two unseen dice bring at least 2
    assert by_total[13].exactly == pytest.approx(6 / 36)  # the two unseen dice sum to 7
    assert page.as_dict()["rows"][0]["words"] == "a total of 3"
    with pytest.raises(ValueError, match="more than the 1 in play"):
        kind_odds(rules, 1, (6, 6))
