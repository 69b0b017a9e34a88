"""liarsdice.ruleset: discovery, building and validating rulesets; the bid ladder; rules text.

Fake plugins are injected with the ``install_plugins`` fixture (see tests/conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from liarsdice import PluginError, Ruleset, RulesetError, hookimpl
from liarsdice.errors import (
    BadOptionValue,
    Conflict,
    MissingRequirement,
    NoEconomics,
    UnknownOption,
    UnknownPreset,
    UnknownVariant,
)
from liarsdice.models import Bid
from liarsdice.options import OptionRegistry
from liarsdice.ruleset import BASELINE, broken, find_variant, installed

# --- discovery --------------------------------------------------------------------------------


def test_installed_finds_the_baseline_and_dice_loss_through_entry_points() -> None:
    found = installed()
    assert list(found) == sorted(found)
    assert found["standard"].distribution == "liarsdice-rules"
    assert found["dice-loss"].distribution == "liarsdice-rules-dice-loss"
    assert found["standard"].info.economics is False
    assert found["dice-loss"].info.economics is True
    assert "standard.wild_ones" in [o.key for o in found["standard"].options]
    assert "challenge" in [c.name for c in found["standard"].calls]
    assert found["dice-loss"].options == ()


def test_find_variant_lists_what_is_installed() -> None:
    assert find_variant("dice-loss").name == "dice-loss"
    with pytest.raises(UnknownVariant, match=r"unknown variant 'nosuch'; installed: .*dice-loss"):
        find_variant("nosuch")


# --- building ---------------------------------------------------------------------------------


def test_build_puts_the_baseline_first_and_resolves_defaults() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.names == ("standard", "dice-loss")
    assert rules.options["standard.wild_ones"] is True
    assert set(rules.options) == {o.key for v in rules.variants for o in v.options}
    assert set(rules.calls) == {"challenge"}
    # Naming the baseline, or a variant twice, changes nothing.
    again = Ruleset.build(["dice-loss", BASELINE, "dice-loss"])
    assert again.names == rules.names


def test_each_ruleset_has_its_own_plugin_manager() -> None:
    first, second = Ruleset.build(["dice-loss"]), Ruleset.build(["dice-loss"])
    assert first.pm is not second.pm
    assert first.hooks is not second.hooks


def test_no_economics_is_refused_and_names_the_plugins_that_offer_it() -> None:
    with pytest.raises(NoEconomics, match="dice-loss"):
        Ruleset.build([])
    with pytest.raises(NoEconomics):
        Ruleset.build(["standard"])


def test_unknown_variant_lists_installed_variants() -> None:
    with pytest.raises(UnknownVariant) as refused:
        Ruleset.build(["dice-loss", "no-such-variant"])
    message = str(refused.value)
    assert "'no-such-variant'" in message
    listed = message.partition("installed: ")[2].split(", ")
    assert listed == list(installed())
    assert {"dice-loss", "standard"} <= set(listed)


def test_several_unknown_variants_are_reported_together() -> None:
    with pytest.raises(UnknownVariant, match=r"unknown variants 'no-such-a', 'no-such-b'"):
        Ruleset.build(["no-such-b", "no-such-a", "dice-loss"])


def test_unknown_option_of_a_variant_not_in_the_ruleset() -> None:
    with pytest.raises(UnknownOption, match=r"nosuch\.bullets: variant 'nosuch' is not in"):
        Ruleset.build(["dice-loss"], {"nosuch.bullets": 2})


def test_unknown_option_of_a_plugin_in_the_ruleset_lists_its_options() -> None:
    with pytest.raises(
        UnknownOption, match=r"standard\.wild_aces: its options are .*standard\.wild_ones"
    ):
        Ruleset.build(["dice-loss"], {"standard.wild_aces": False})
    with pytest.raises(UnknownOption, match=r"dice-loss\.per_round: it has no options"):
        Ruleset.build(["dice-loss"], {"dice-loss.per_round": 2})


@pytest.mark.parametrize(
    ("given", "expected"),
    [("false", False), ("no", False), ("yes", True), ("TRUE", True), (False, False)],
)
def test_bool_options_parse_command_line_text(given: object, expected: bool) -> None:
    rules = Ruleset.build(["dice-loss"], {"standard.wild_ones": given})
    assert rules.options["standard.wild_ones"] is expected


@pytest.mark.parametrize("given", [1, "maybe", None, "fales"])
def test_bad_option_value_names_the_option(given: object) -> None:
    with pytest.raises(BadOptionValue, match=r"standard\.wild_ones"):
        Ruleset.build(["dice-loss"], {"standard.wild_ones": given})


def test_ruleset_errors_are_value_errors() -> None:
    assert issubclass(RulesetError, ValueError)
    for error in (UnknownVariant, UnknownOption, BadOptionValue, MissingRequirement, Conflict):
        assert issubclass(error, RulesetError)


def test_option_declaration_lookup() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.option("standard.wild_ones").default is True
    with pytest.raises(UnknownOption):
        rules.option("standard.nope")


def test_repr_shows_variants_and_changed_options_only() -> None:
    assert repr(Ruleset.build(["dice-loss"])) == "Ruleset(['dice-loss'], {})"
    changed = Ruleset.build(["dice-loss"], {"standard.wild_ones": "false"})
    assert repr(changed) == "Ruleset(['dice-loss'], {'standard.wild_ones': False})"


def test_unknown_preset_lists_the_available_ones() -> None:
    with pytest.raises(UnknownPreset, match=r"unknown preset 'nope'; available: "):
        Ruleset.build([], {}, "nope")


# --- the bid ladder ---------------------------------------------------------------------------


def test_ladder_is_every_bid_sorted_by_rank() -> None:
    rules = Ruleset.build(["dice-loss"])
    keys, bids = rules.ladder(3)
    assert len(bids) == 3 * 6
    assert set(bids) == {Bid(q, f) for q in (1, 2, 3) for f in range(1, 7)}
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert bids[0] == Bid(1, 1)
    assert bids[-1] == Bid(3, 6)


def test_bids_above_are_exactly_the_higher_ranked_bids() -> None:
    rules = Ruleset.build(["dice-loss"])
    assert rules.bids_above(None, 2) == rules.ladder(2)[1]
    above = rules.bids_above(Bid(2, 3), 3)
    assert above == [Bid(2, 4), Bid(2, 5), Bid(2, 6), *(Bid(3, f) for f in range(1, 7))]
    assert rules.bids_above(Bid(3, 6), 3) == []


# --- rules text --------------------------------------------------------------------------------


def test_describe_has_each_plugin_section_and_the_options_in_force() -> None:
    page = Ruleset.build(["dice-loss"]).describe()
    assert page.startswith("# Rules: Standard rules + Dice loss\n")
    assert page.index("## Standard rules") < page.index("## Dice loss")
    assert "- Ones are wild (they count toward every other face): **yes**\n" in page
    assert "one die" in page[page.index("## Dice loss") :]


def test_describe_follows_option_values() -> None:
    wild = Ruleset.build(["dice-loss"]).describe()
    plain = Ruleset.build(["dice-loss"], {"standard.wild_ones": False}).describe()
    assert "Ones are wild (they count toward every other face): **no**" in plain
    assert "No die is wild" in plain
    assert "No die is wild" not in wild


# --- fake plugins -----------------------------------------------------------------------------


def test_a_third_party_economics_plugin_is_enough(install_plugins, plugin_factory) -> None:
    install_plugins({"tokens": plugin_factory("tokens", economics=True)})
    rules = Ruleset.build(["tokens"])
    assert rules.names == ("standard", "tokens")
    assert installed()["tokens"].distribution == "fake-dist"


def test_no_economics_error_offers_installed_economics(install_plugins, plugin_factory) -> None:
    install_plugins({"cosmetic": plugin_factory("cosmetic")})
    with pytest.raises(NoEconomics, match=r"add one of .*dice-loss") as refused:
        Ruleset.build(["cosmetic"])
    assert "cosmetic" not in str(refused.value)


def test_a_fake_plugins_options_are_declared_and_parsed(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_register_options(options: OptionRegistry) -> None:
        options.add("chips", 3, "chips per player", minimum=1)

    install_plugins({"chips": plugin_factory("chips", liarsdice_register_options, economics=True)})
    assert Ruleset.build(["chips"]).options["chips.chips"] == 3
    assert Ruleset.build(["chips"], {"chips.chips": "5"}).options["chips.chips"] == 5
    with pytest.raises(BadOptionValue, match=r"chips\.chips must be at least 1"):
        Ruleset.build(["chips"], {"chips.chips": 0})


def test_missing_requirement_names_both_plugins(install_plugins, plugin_factory) -> None:
    install_plugins({"palifico": plugin_factory("palifico", requires=("aces-switch",))})
    with pytest.raises(MissingRequirement, match=r"palifico requires aces-switch"):
        Ruleset.build(["palifico", "dice-loss"])


def test_requirement_met_builds(install_plugins, plugin_factory) -> None:
    install_plugins({"needy": plugin_factory("needy", requires=("dice-loss",))})
    assert Ruleset.build(["needy", "dice-loss"]).names == ("standard", "dice-loss", "needy")
    with pytest.raises(MissingRequirement, match="needy requires dice-loss"):
        Ruleset.build(["needy"])


def test_conflict_names_both_plugins(install_plugins, plugin_factory) -> None:
    install_plugins(
        {
            "winner-opens": plugin_factory("winner-opens", conflicts=("last-change-opens",)),
            "last-change-opens": plugin_factory("last-change-opens"),
        }
    )
    Ruleset.build(["winner-opens", "dice-loss"])  # alone, each is fine
    Ruleset.build(["last-change-opens", "dice-loss"])
    with pytest.raises(Conflict, match=r"winner-opens conflicts with last-change-opens"):
        Ruleset.build(["winner-opens", "last-change-opens", "dice-loss"])


def test_combination_problem_is_reported(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_combination_problem(variants, options) -> str | None:
        if options["standard.wild_ones"]:
            return None
        return "ones-locking needs standard.wild_ones=true"

    install_plugins({"ones-locking": plugin_factory("ones-locking", liarsdice_combination_problem)})
    Ruleset.build(["ones-locking", "dice-loss"])
    with pytest.raises(Conflict, match=r"ones-locking needs standard\.wild_ones=true"):
        Ruleset.build(["ones-locking", "dice-loss"], {"standard.wild_ones": False})


def test_combination_problems_from_every_plugin_are_all_reported(
    install_plugins, plugin_factory
) -> None:
    def refuser(name: str):
        @hookimpl
        def liarsdice_combination_problem(variants) -> str:
            return f"{name} refuses {'+'.join(variants)}"

        return plugin_factory(name, liarsdice_combination_problem)

    install_plugins({"a": refuser("a"), "b": refuser("b")})
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["a", "b", "dice-loss"])
    assert "a refuses standard+a+b+dice-loss" in str(refused.value)
    assert "b refuses standard+a+b+dice-loss" in str(refused.value)


def test_plugin_without_variant_info_is_a_plugin_error(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_describe() -> str:
        return "nothing to say"

    install_plugins({"anon": plugin_factory("anon", liarsdice_describe, info=None)})
    with pytest.raises(
        PluginError,
        match=r"anon \(fake-dist\): liarsdice_variant_info must return a VariantInfo, and it "
        r"returned nothing",
    ):
        Ruleset.build(["dice-loss", "anon"])


def test_misspelt_hook_name_is_a_plugin_error(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_bid_rnak(bid):
        return (bid.quantity, bid.face)

    install_plugins({"typo": plugin_factory("typo", liarsdice_bid_rnak)})
    with pytest.raises(PluginError, match=r"typo \(fake-dist\).*liarsdice_bid_rnak"):
        Ruleset.build(["dice-loss", "typo"])


def test_hookimpl_with_an_argument_the_spec_lacks_is_a_plugin_error(
    install_plugins, plugin_factory
) -> None:
    @hookimpl
    def liarsdice_bid_rank(bid, state):
        return None

    install_plugins({"greedy": plugin_factory("greedy", liarsdice_bid_rank)})
    with pytest.raises(PluginError, match=r"(?s)greedy \(fake-dist\).*'state'"):
        Ruleset.build(["dice-loss", "greedy"])


def test_plugin_that_fails_to_import_is_a_plugin_error(install_plugins) -> None:
    install_plugins({"broken": ModuleNotFoundError("No module named 'liarsdice_broken'")})
    with pytest.raises(PluginError, match=r"broken \(fake-dist\) failed to load: No module named"):
        Ruleset.build(["dice-loss", "broken"])
    # ...and it breaks nothing else: the other variants still build, and it is reported.
    assert "broken" not in installed()
    assert Ruleset.build(["dice-loss"]).names == ("standard", "dice-loss")
    assert "No module named" in str(broken()["broken"])


def test_the_install_fixture_restores_the_real_plugins(install_plugins, plugin_factory) -> None:
    # Runs after fake plugins were installed by other tests: only the real ones are back.
    assert "anon" not in installed()
    install_plugins({"extra": plugin_factory("extra")})
    assert "extra" in installed()


def test_a_call_out_of_turn_under_an_option_nobody_declares_is_refused_by_name(
    install_plugins: Any, plugin_factory: Any
) -> None:
    @hookimpl
    def liarsdice_register_calls(calls: Any) -> None:
        calls.add("shout", "a call", out_of_turn="loud")

    install_plugins({"shouter": plugin_factory("shouter", liarsdice_register_calls)})
    with pytest.raises(
        PluginError,
        match=r"shouter: call .shout. is made out of turn where option "
        "'shouter.loud' is on, but no such option is declared",
    ):
        Ruleset.build(["shouter", "dice-loss"])


def test_two_variants_registering_one_call_kind_are_refused_with_both_names(
    install_plugins: Any, plugin_factory: Any
) -> None:
    @hookimpl
    def liarsdice_register_calls(calls: Any) -> None:
        calls.add("doubt", "the bid on the table is a lie")

    install_plugins({"doubter": plugin_factory("doubter", liarsdice_register_calls)})
    with pytest.raises(
        Conflict, match="doubter and pass both register the call 'doubt': one must declare"
    ):
        Ruleset.build(["doubter", "pass", "dice-loss"])
    assert Ruleset.build(["doubter", "dice-loss"]).calls["doubt"].plugin == "doubter"
