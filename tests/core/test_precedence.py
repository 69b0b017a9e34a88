"""Precedence: the baseline is a fallback, variants are ordered by declaration, and a ruleset with
an unordered or unreachable implementation is refused, naming the plugins and the hook. Also the
capabilities and option defaults variants declare, and the "which faces are wild" query."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, PluginError, Ruleset, hookimpl
from liarsdice.engine import call_problems
from liarsdice.errors import BadOptionValue, Conflict, MissingRequirement, UnknownOption
from liarsdice.ruleset import broken, installed

# --- the baseline answers last --------------------------------------------------------------------


@hookimpl
def liarsdice_matching_faces(face):
    return frozenset({face, 6}) if face != 6 else frozenset({6})


def test_a_variant_answers_before_the_baseline_without_any_marker(
    install_plugins, plugin_factory
) -> None:
    install_plugins({"sixes": plugin_factory("sixes", liarsdice_matching_faces)})
    rules = Ruleset.build(["sixes", "dice-loss"], {"standard.wild_ones": False})
    state = Game(rules, ["Ann", "Ben"], Random(0)).state
    assert rules.hooks.matching_faces(state, 3) == frozenset({3, 6})
    assert rules.wild_faces() == frozenset({6})


@pytest.mark.parametrize("marker", ["tryfirst", "trylast"])
def test_tryfirst_and_trylast_are_refused_naming_the_plugin_and_the_hook(
    install_plugins, plugin_factory, marker: str
) -> None:
    marked = hookimpl(**{marker: True})(lambda face: None)
    marked.__name__ = "liarsdice_matching_faces"
    install_plugins({"marked": plugin_factory("marked", marked)})
    assert "marked" not in installed()
    problem = str(broken()["marked"])
    assert "variant marked (fake-dist): liarsdice_matching_faces is marked " + marker in problem
    assert "VariantInfo(before=..., after=...)" in problem
    with pytest.raises(PluginError, match=f"marked {marker}"):
        Ruleset.build(["marked", "dice-loss"])


def test_a_wrapper_on_a_hook_called_per_plugin_is_refused(install_plugins, plugin_factory) -> None:
    @hookimpl(wrapper=True)
    def liarsdice_describe():
        text = yield
        return text

    install_plugins({"wrapped": plugin_factory("wrapped", liarsdice_describe)})
    assert "liarsdice_describe is a wrapper" in str(broken()["wrapped"])


def test_a_wrapper_on_a_game_hook_wraps_the_whole_chain(install_plugins, plugin_factory) -> None:
    """ "Last die lives": a wrapper drops the revolver's shot at a player down to one die."""

    @hookimpl(wrapper=True)
    def liarsdice_settle(state):
        answers = yield
        last = {p.name for p in state.players if p.dice == 1}
        return [
            [e for e in effects if type(e).__name__ != "Eliminated" or e.player not in last]
            for effects in answers
        ]

    install_plugins({"last-die-lives": plugin_factory("last-die-lives", liarsdice_settle)})
    rules = Ruleset.build(["last-die-lives", "revolver"], {"revolver.initial_bullets": 6})
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=1)
    game.start_round({"Ann": [3], "Ben": [4]})
    game.bid("Ann", 2, 3)
    game.call("Ben")  # Ann loses: six bullets of six, but she holds her last die
    assert game.state.player("Ann").alive
    assert game.state.plugin("revolver")["bullets"] == {"Ann": 6}


# --- declared order -------------------------------------------------------------------------------


def _opener(name: str):
    @hookimpl
    def liarsdice_next_opener(resolution):
        return name if resolution.losers else None

    return liarsdice_next_opener


def test_two_variants_answering_one_hook_need_a_declared_order(
    install_plugins, plugin_factory
) -> None:
    install_plugins(
        {
            "alpha": plugin_factory("alpha", _opener("Ann")),
            "omega": plugin_factory("omega", _opener("Ben")),
        }
    )
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["alpha", "omega", "dice-loss"])
    message = str(refused.value)
    assert "alpha and omega both answer liarsdice_next_opener" in message
    assert "neither declares which comes first" in message and "before=('omega',)" in message


@pytest.mark.parametrize(("declared", "first"), [("before", "omega"), ("after", "alpha")])
def test_the_declared_order_decides_not_the_names(
    install_plugins, plugin_factory, declared: str, first: str
) -> None:
    install_plugins(
        {
            "alpha": plugin_factory("alpha", _opener("Ann")),
            "omega": plugin_factory("omega", _opener("Ben"), **{declared: ("alpha",)}),
        }
    )
    rules = Ruleset.build(["alpha", "omega", "dice-loss"])
    second = "alpha" if first == "omega" else "omega"
    assert rules.order.index(first) < rules.order.index(second)
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [2, 2], "Ben": [3, 3], "Cid": [4, 4]})
    game.bid("Ann", 1, 5)
    game.call("Ben")
    assert game.state.next_opener == ("Ben" if first == "omega" else "Ann")


def test_a_circle_of_declarations_is_refused(install_plugins, plugin_factory) -> None:
    install_plugins(
        {
            "alpha": plugin_factory("alpha", before=("omega",)),
            "omega": plugin_factory("omega", before=("alpha",)),
        }
    )
    with pytest.raises(Conflict, match="goes round in a circle: alpha before omega; omega before"):
        Ruleset.build(["alpha", "omega", "dice-loss"])


def test_disjoint_answers_need_no_order(install_plugins, plugin_factory) -> None:
    def rank_of(face: int, key: float):
        @hookimpl
        def liarsdice_bid_rank(bid):
            return (bid.quantity, key) if bid.face == face else None

        return liarsdice_bid_rank

    install_plugins(
        {
            "low-sixes": plugin_factory("low-sixes", rank_of(6, 0.5)),
            "high-twos": plugin_factory("high-twos", rank_of(2, 6.5)),
        }
    )
    rules = Ruleset.build(["low-sixes", "high-twos", "dice-loss"])
    assert rules.hooks.bid_rank(rules.ladder(1)[1][0]) == (1, 0.5)


@hookimpl
def liarsdice_matching_faces_when_locked(state, face):
    return frozenset({face}) if state.plugin("locker").get("locked") else None


liarsdice_matching_faces_when_locked.__name__ = "liarsdice_matching_faces"


def test_an_implementation_that_can_never_run_is_refused(install_plugins, plugin_factory) -> None:
    install_plugins(
        {
            "sixes": plugin_factory("sixes", liarsdice_matching_faces, before=("locker",)),
            "locker": plugin_factory("locker", liarsdice_matching_faces_when_locked),
        }
    )
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["sixes", "locker", "dice-loss"], {"standard.wild_ones": False})
    assert "locker's liarsdice_matching_faces can never run: sixes is asked first" in str(
        refused.value
    )
    assert "reverse the declared order of sixes and locker" in str(refused.value)


def test_the_state_reading_variant_first_keeps_both_reachable(
    install_plugins, plugin_factory
) -> None:
    install_plugins(
        {
            "sixes": plugin_factory("sixes", liarsdice_matching_faces),
            "locker": plugin_factory(
                "locker", liarsdice_matching_faces_when_locked, before=("sixes",)
            ),
        }
    )
    rules = Ruleset.build(["sixes", "locker", "dice-loss"], {"standard.wild_ones": False})
    assert rules.order.index("locker") < rules.order.index("sixes")


# --- capabilities -------------------------------------------------------------------------------


def test_a_requirement_is_met_by_any_variant_that_provides_it(
    install_plugins, plugin_factory
) -> None:
    install_plugins(
        {
            "needy": plugin_factory("needy", requires=("dice-economy",)),
            "tokens": plugin_factory("tokens", provides=("dice-economy",), economics=True),
        }
    )
    assert "tokens" in Ruleset.build(["needy", "tokens"]).names
    assert "dice-loss" in Ruleset.build(["needy", "dice-loss"]).names
    with pytest.raises(MissingRequirement) as refused:
        Ruleset.build(["needy", "revolver"])
    assert "needy requires dice-economy, which no variant in this ruleset provides" in str(
        refused.value
    )
    assert "dice-loss" in str(refused.value) and "tokens" in str(refused.value)


def test_a_conflict_may_name_a_capability(install_plugins, plugin_factory) -> None:
    install_plugins({"diceless": plugin_factory("diceless", conflicts=("dice-economy",))})
    with pytest.raises(Conflict, match=r"diceless conflicts with dice-economy \(dice-loss\)"):
        Ruleset.build(["diceless", "dice-loss"])
    assert Ruleset.build(["diceless", "revolver"]).names == ("standard", "diceless", "revolver")


# --- option defaults set by other variants ------------------------------------------------------


def test_a_variant_sets_another_plugins_default_unless_the_table_does(
    install_plugins, plugin_factory
) -> None:
    install_plugins(
        {"plain": plugin_factory("plain", option_defaults={"standard.wild_ones": False})}
    )
    rules = Ruleset.build(["plain", "dice-loss"])
    assert rules.options["standard.wild_ones"] is False
    assert rules.defaults["standard.wild_ones"] is False
    assert "wild_ones" not in repr(rules)  # at its (new) default, so not listed as changed
    chosen = Ruleset.build(["plain", "dice-loss"], {"standard.wild_ones": True})
    assert chosen.options["standard.wild_ones"] is True


def test_two_variants_setting_different_defaults_are_refused(install_plugins, plugin_factory):
    install_plugins(
        {
            "plain": plugin_factory("plain", option_defaults={"standard.wild_ones": False}),
            "wild": plugin_factory("wild", option_defaults={"standard.wild_ones": True}),
        }
    )
    with pytest.raises(Conflict, match="plain and wild set different defaults for standard"):
        Ruleset.build(["plain", "wild", "dice-loss"])
    both = Ruleset.build(["plain", "wild", "dice-loss"], {"standard.wild_ones": False})
    assert both.options["standard.wild_ones"] is False


@pytest.mark.parametrize(
    ("defaults", "error", "message"),
    [
        ({"standard.wild_aces": False}, UnknownOption, "sets a default for standard.wild_aces"),
        ({"standard.wild_ones": "maybe"}, BadOptionValue, "odd sets a bad default"),
    ],
)
def test_a_bad_default_names_the_variant_that_set_it(
    install_plugins, plugin_factory, defaults, error, message
) -> None:
    install_plugins({"odd": plugin_factory("odd", option_defaults=defaults)})
    with pytest.raises(error, match=message):
        Ruleset.build(["odd", "dice-loss"])


def test_a_default_for_ones_own_option_is_refused_at_load(install_plugins, plugin_factory):
    install_plugins({"self": plugin_factory("self", option_defaults={"self.x": 1})})
    assert "give another plugin's option" in str(broken()["self"])


# --- which faces are wild -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variants", "options", "wild"),
    [
        (["dice-loss"], {}, {1}),
        (["dice-loss"], {"standard.wild_ones": False}, set()),
        (["wild-sixes", "dice-loss"], {}, {6}),
        (["ones-locking", "dice-loss"], {}, {1}),
    ],
)
def test_wild_faces_follow_the_counting_rule(variants, options, wild) -> None:
    assert Ruleset.build(variants, options).wild_faces() == frozenset(wild)


def test_wild_faces_change_during_a_round() -> None:
    rules = Ruleset.build(["ones-locking", "dice-loss"])  # the online preset's rules
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [1, 2], "Ben": [3, 4]})
    assert rules.wild_faces(game.state) == frozenset({1})
    game.bid("Ann", 1, 1)  # ones are locked now
    assert rules.wild_faces(game.state) == frozenset()


def test_a_marked_function_without_the_hook_prefix_is_still_refused(
    install_plugins, plugin_factory
) -> None:
    @hookimpl
    def settle(resolution):
        return []

    install_plugins({"typo": plugin_factory("typo", settle)})
    assert "unknown hook 'settle'" in str(broken()["typo"])


def test_two_unordered_wrappers_of_one_hook_are_refused(install_plugins, plugin_factory) -> None:
    def wrapper():
        @hookimpl(wrapper=True)
        def liarsdice_next_turn():
            return (yield)

        return liarsdice_next_turn

    install_plugins(
        {
            "inner": plugin_factory("inner", wrapper()),
            "outer": plugin_factory("outer", wrapper()),
        }
    )
    with pytest.raises(Conflict, match="inner and outer both wrap liarsdice_next_turn"):
        Ruleset.build(["inner", "outer", "dice-loss"])
    install_plugins(
        {
            "inner": plugin_factory("inner", wrapper()),
            "outer": plugin_factory("outer", wrapper(), before=("inner",)),
        }
    )
    order = Ruleset.build(["inner", "outer", "dice-loss"]).order
    assert order.index("outer") < order.index("inner")


def test_nobody_challenges_their_own_bid(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_next_turn(player):
        return player  # the bidder keeps the turn

    install_plugins({"again": plugin_factory("again", liarsdice_next_turn)})
    rules = Ruleset.build(["again", "calza", "dice-loss"])
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [2, 3], "Ben": [4, 5]})
    game.bid("Ann", 1, 2)
    assert game.state.round is not None and game.state.round.turn == "Ann"
    assert call_problems(rules, game.state, "Ann", "challenge") == [
        "you cannot challenge your own bid"
    ]
    assert call_problems(rules, game.state, "Ann", "exact") == [
        "calza: you cannot call your own bid exact"
    ]
