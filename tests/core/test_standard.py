"""liarsdice.standard: the baseline plugin's hooks, called directly and through a ruleset."""

from __future__ import annotations

import pluggy
import pytest

from liarsdice import Ruleset, standard
from liarsdice.hookspecs import PROJECT
from liarsdice.models import Bid, GameState, PlacedBid, PlayerState, RoundState
from liarsdice.options import CallRegistry, OptionRegistry

WILD = {"standard.wild_ones": True}
PLAIN = {"standard.wild_ones": False}


def state_with_bid(bid: Bid | None, bidder: str = "Ann") -> GameState:
    bids = (PlacedBid(bidder, bid),) if bid else ()
    round_ = RoundState(1, "Ann", {"Ann": (1,), "Ben": (2,)}, 2, turn="Ben", bids=bids)
    return GameState((PlayerState("Ben", 1), PlayerState("Ann", 1)), 1, round_)


def test_the_baseline_needs_no_markers_to_be_the_fallback() -> None:
    marker = f"{PROJECT}_impl"
    impls = [getattr(standard, name) for name in dir(standard) if name.startswith("liarsdice_")]
    assert len(impls) >= 10
    for impl in impls:
        options = getattr(impl, marker)
        assert not options["trylast"] and not options["tryfirst"], impl.__name__
    rules = Ruleset.build(["dice-loss"])
    first = rules.pm.hook.liarsdice_matching_faces.get_hookimpls()
    assert first[0].plugin_name == "standard", "registered first, so pluggy asks it last"


def test_the_baseline_is_found_through_the_entry_point_group() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.variants[0].plugin is standard
    assert isinstance(rules.pm, pluggy.PluginManager)
    assert rules.pm.get_plugin("standard") is standard


def test_variant_info_and_registrations() -> None:
    info = standard.liarsdice_variant_info()
    assert info.economics is False and info.requires == () and info.conflicts == ()
    options = OptionRegistry("standard")
    standard.liarsdice_register_options(options)
    assert ("standard.wild_ones", True) in [(o.key, o.default) for o in options.options]
    calls = CallRegistry("standard")
    standard.liarsdice_register_calls(calls)
    assert [c.name for c in calls.calls] == ["challenge"]


def test_bid_rank_is_quantity_then_face() -> None:
    ranked = sorted(
        [Bid(2, 6), Bid(3, 1), Bid(2, 2), Bid(1, 6), Bid(3, 2)], key=standard.liarsdice_bid_rank
    )
    assert ranked == [Bid(1, 6), Bid(2, 2), Bid(2, 6), Bid(3, 1), Bid(3, 2)]


@pytest.mark.parametrize("face", [2, 3, 4, 5, 6])
def test_other_faces_are_always_allowed(face: int) -> None:
    assert standard.liarsdice_face_allowed(face, WILD) is True
    assert standard.liarsdice_face_allowed(face, PLAIN) is True


def test_ones_are_refused_only_while_wild() -> None:
    assert standard.liarsdice_face_allowed(1, WILD) == "ones are wild: no bids on ones"
    assert standard.liarsdice_face_allowed(1, PLAIN) is True


@pytest.mark.parametrize("face", [2, 3, 4, 5, 6])
def test_matching_faces(face: int) -> None:
    assert standard.liarsdice_matching_faces(face, WILD) == {face, 1}
    assert standard.liarsdice_matching_faces(face, PLAIN) == {face}


def test_a_bid_on_ones_counts_ones_only() -> None:
    assert standard.liarsdice_matching_faces(1, WILD) == {1}
    assert standard.liarsdice_matching_faces(1, PLAIN) == {1}


@pytest.mark.parametrize(
    ("count", "stands"), [(0, False), (3, False), (4, True), (5, True), (9, True)]
)
def test_challenge_resolution(count: int, stands: bool) -> None:
    state = state_with_bid(Bid(4, 5))
    ruling = standard.liarsdice_resolve_call(state, "Ben", "challenge", count)
    assert ruling is not None
    assert ruling.count == count and ruling.bid == Bid(4, 5)
    assert ruling.caller == "Ben" and ruling.bidder == "Ann"
    assert ruling.success is not stands
    assert ruling.losers == (("Ben",) if stands else ("Ann",))
    assert ruling.winners == (("Ann",) if stands else ("Ben",))


def test_other_call_kinds_are_left_to_other_plugins() -> None:
    assert standard.liarsdice_resolve_call(state_with_bid(Bid(1, 2)), "Ben", "exact", 1) is None


def test_timeout_loses_the_round_with_no_count() -> None:
    ruling = standard.liarsdice_timeout(state_with_bid(Bid(2, 3)), "Ben")
    assert ruling.call == "timeout" and ruling.count is None and ruling.success is False
    assert ruling.losers == ("Ben",) and ruling.winners == ()
    assert ruling.bidder == "Ann" and ruling.bid == Bid(2, 3)
    opening = standard.liarsdice_timeout(state_with_bid(None), "Ann")
    assert opening.bidder is None and opening.bid is None and opening.losers == ("Ann",)


def test_seat_one_opens_first_and_the_loser_opens_next() -> None:
    state = state_with_bid(Bid(1, 2))
    assert standard.liarsdice_first_opener(state) == "Ben"  # seat 1, whatever the name
    ruling = standard.liarsdice_resolve_call(state, "Ben", "challenge", 0)
    assert ruling is not None and standard.liarsdice_next_opener(ruling) == "Ann"
    assert standard.liarsdice_next_opener(standard.liarsdice_timeout(state, "Ben")) == "Ben"


def test_rules_text_follows_the_option() -> None:
    def baseline_part(options: dict[str, bool]) -> str:
        page = Ruleset.build(["dice-loss"], options).describe()
        return page[: page.index("## Dice loss")]

    wild, plain = baseline_part({}), baseline_part({"standard.wild_ones": False})
    assert wild != plain
    assert "No die is wild" in plain and "**No wild dice.**" in plain
    assert "lowest" in plain
    assert "Ones are wild" in wild and "**Wild ones.**" in wild
    assert "No die is wild" not in wild and "nobody may bid ones" in wild
