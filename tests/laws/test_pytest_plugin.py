"""The pytest plugin for plugin authors: one line runs the laws against a variant, alone and with
every compatible installed variant; a broken variant fails with the law's message."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Imported here so that pytester's in-process runs (which forget the modules they import) share
# them with this process.
import liarsdice.testing.isolation
import liarsdice.testing.laws
import liarsdice.testing.pytest_plugin
import liarsdice.testing.pytest_sweep
import liarsdice.testing.replay
import liarsdice.testing.running
import liarsdice.testing.snapshots
import liarsdice.testing.strategies
import liarsdice.testing.suite
import liarsdice.testing.suite.plan  # noqa: F401

pytest_plugins = ["pytester"]

BROKEN = """
import random
import pytest
from liarsdice import GameState, Resolution, VariantInfo, hookimpl


class Unfair:
    \"\"\"The wrong player loses every challenge.\"\"\"

    @staticmethod
    @hookimpl
    def liarsdice_variant_info():
        return VariantInfo("Unfair", "the wrong player loses")

    @staticmethod
    @hookimpl
    def liarsdice_resolve_call(state: GameState, player: str, call: str, count: int):
        placed = state.round.bids[-1]
        lie = count < placed.bid.quantity
        loser, winner = (player, placed.player) if lie else (placed.player, player)
        return Resolution(
            call, player, placed.player, placed.bid, count, not lie, (loser,), (winner,)
        )


pytestmark = pytest.mark.liarsdice_variant("unfair", plugin=Unfair, combine=False)
"""


def run(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_variant=textwrap.dedent(source))
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly", *args)


def test_one_line_collects_alone_each_compatible_partner_and_any_combination(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
        import pytest
        pytestmark = pytest.mark.liarsdice_variant("ones-locking")
        """,
        "--collect-only",
        "-q",
    )
    lines = result.stdout.lines
    laws = "test_variant.py::liarsdice_laws[ones-locking]::"
    assert f"{laws}alone" in lines and f"{laws}does-something" in lines
    assert f"{laws}isolation" in lines and f"{laws}rules-text" in lines
    assert f"{laws}anticlockwise" in lines
    assert f"{laws}with[calza]" in lines and f"{laws}with[revolver]" in lines
    assert f"{laws}any-combination" in lines
    # ones-locking conflicts with aces-switch: the pair is there, to be skipped with the reason.
    assert f"{laws}with[aces-switch]" in lines
    assert not [line for line in lines if "with[ones-locking]" in line]


def test_a_pair_the_rules_refuse_is_skipped_with_the_reason(pytester: pytest.Pytester) -> None:
    result = run(pytester, 'liarsdice_variant = "ones-locking"\n', "-k", "aces or wild", "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(
        [
            "*Ruleset.build refuses aces-switch + ones-locking: aces-switch conflicts with "
            "ones-locking: choose one of them*",
            "*Ruleset.build refuses ones-locking + wild-sixes: wild-sixes conflicts with "
            "ones-locking*",
        ]
    )


def test_exclude_leaves_a_shipped_law_out_by_name(pytester: pytest.Pytester) -> None:
    source = """
        import pytest
        pytestmark = pytest.mark.liarsdice_variant(
            "unfair",
            plugin=Unfair,
            combine=False,
            exclude=["challenge_has_one_loser", "calls_deal_their_stakes"],
        )
    """
    result = run(pytester, BROKEN.split("pytestmark")[0] + textwrap.dedent(source), "-k", "alone")
    # the only laws it breaks are left out: the challenge's, and the stakes the baseline
    # declares for a challenge (its rulings no longer deal them)
    result.assert_outcomes(passed=1)


def test_exclude_names_an_unknown_law(pytester: pytest.Pytester) -> None:
    source = (
        "import pytest\npytestmark = pytest.mark.liarsdice_variant('dice-loss', exclude=['nope'])\n"
    )
    result = run(pytester, source)
    result.stdout.fnmatch_lines(
        [
            "*exclude=...): no shipped law is called nope; the laws: bid_kind_is_consistent, bid_order*"
        ]
    )


def test_a_module_attribute_asks_too_and_the_laws_pass(pytester: pytest.Pytester) -> None:
    result = run(pytester, 'liarsdice_variant = "dice-loss"\n', "-k", "alone or cheko", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*liarsdice_laws?dice-loss?::alone PASSED*"])


def test_a_broken_variant_fails_with_the_law_and_a_shrunk_game(pytester: pytest.Pytester) -> None:
    result = run(pytester, BROKEN, "-rs")
    # It breaks a law, it does change rulings, it keeps nothing between games, it plays
    # anticlockwise, and it has no rules-text snapshot yet.
    result.assert_outcomes(failed=1, passed=3, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*liarsdice laws for unfair*",
            "*law violated: a challenge has exactly one loser*",
            "*ruleset: Ruleset(*unfair*",
            "*example: *",
            "*replay this game and check every law on it:*",
            "*-m liarsdice.testing.replay --rules * --players p1,p2* --seed * --choices *"
            " --plugin unfair=test_variant:Unfair*",
            "*laws_unfair_alone(*",
            "*no rules-text snapshot of unfair yet: write *rules_text/unfair.md with `pytest "
            "--accept-rules-text` and commit it*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


NATURAL_ACE = """
import pytest
from liarsdice import GameState, VariantInfo, hookimpl


class NaturalAce:
    \"\"\"Wild ones count toward a face only beside a natural of it, as a stranger writes it.\"\"\"

    @staticmethod
    @hookimpl
    def liarsdice_variant_info():
        return VariantInfo("Natural ace", "wild ones count only beside a natural")

    @staticmethod
    @hookimpl
    def liarsdice_matching_faces(state: GameState, face: int):
        if face == 1 or state.round is None:
            return None
        dice = [die for roll in state.round.rolls.values() for die in roll]
        return None if face in dice else frozenset({face})


pytestmark = pytest.mark.liarsdice_variant("natural-ace", plugin=NaturalAce, combine=False)
"""


def test_counting_the_odds_cannot_price_is_refused_naming_plugin_and_hook(
    pytester: pytest.Pytester,
) -> None:
    result = run(pytester, NATURAL_ACE, "-k", "alone")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*law violated: which faces count toward a bid does not depend on the dice under the "
            "cups*",
            "*(changed by natural-ace's liarsdice_matching_faces); the odds and the bots count "
            "each unseen die on its own*",
        ]
    )


OWN_LAW = """
import pytest
from liarsdice.testing.laws import LawViolation
from liarsdice.testing.driver import timeline, show_move

CHECKED = []


def nobody_bids_six_sixes(rules, steps):
    \"\"\"A law of this plugin's own: no bid of six sixes, ever (false on purpose).\"\"\"
    CHECKED.append(rules)
    for step in timeline(steps):
        bid = getattr(step.action, "bid", None)
        if bid is not None and bid.quantity >= 2:
            raise LawViolation("nobody bids two of anything", rules, show_move(step.action))


pytestmark = pytest.mark.liarsdice_variant("dice-loss", combine=False, laws=[nobody_bids_six_sixes])


def test_the_own_law_ran():
    assert CHECKED
"""


def test_a_plugin_adds_laws_of_its_own(pytester: pytest.Pytester) -> None:
    result = run(pytester, OWN_LAW, "-p", "no:randomly")
    result.assert_outcomes(failed=1, passed=4, skipped=1)  # no rules-text snapshot: skipped
    result.stdout.fnmatch_lines(
        ["*liarsdice laws for dice-loss (alone)*", "*law violated: nobody bids two of anything*"]
    )
    assert "Traceback" not in result.stdout.str()


def test_extra_laws_must_be_functions(pytester: pytest.Pytester) -> None:
    source = "import pytest\npytestmark = pytest.mark.liarsdice_variant('dice-loss', laws=[1])\n"
    result = run(pytester, source)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*liarsdice_variant(laws=...) takes law functions*"])


def test_several_unpackaged_plugins_install_together(pytester: pytest.Pytester) -> None:
    source = BROKEN.replace(
        'pytestmark = pytest.mark.liarsdice_variant("unfair", plugin=Unfair, combine=False)',
        'pytestmark = pytest.mark.liarsdice_variant("unfair", plugins={"unfair": Unfair, '
        '"unfair-too": Unfair}, combine=False)',
    )
    result = run(pytester, source, "--collect-only", "-q")
    assert "test_variant.py::liarsdice_laws[unfair]::alone" in result.stdout.lines


def test_a_conftest_can_ask(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('liarsdice_variant = ["dice-loss"]\n')
    pytester.makepyfile(test_other="def test_other():\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-k", "alone or other", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["conftest.py::liarsdice_laws?dice-loss?::alone PASSED*"])


def test_a_conftest_must_write_the_names_out(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('NAME = "dice-loss"\nliarsdice_variant = NAME\n')
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*liarsdice_variant must be a variant name or a list of names*"])


def test_an_unknown_variant_is_a_collection_error_naming_the_installed_ones(
    pytester: pytest.Pytester,
) -> None:
    result = run(pytester, 'liarsdice_variant = "no-such-variant"\n')
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*liarsdice laws for no-such-variant: unknown variant*installed*"])


def test_a_marker_without_names_is_refused(pytester: pytest.Pytester) -> None:
    result = run(pytester, "import pytest\npytestmark = pytest.mark.liarsdice_variant()\n")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*liarsdice_variant needs variant names*"])


def test_modules_that_do_not_ask_get_nothing(pytester: pytest.Pytester) -> None:
    result = run(pytester, "def test_plain():\n    pass\n", "--collect-only", "-q")
    assert [line for line in result.stdout.lines if "::" in line] == ["test_variant.py::test_plain"]


def test_loading_the_plugin_imports_neither_hypothesis_nor_the_kit() -> None:
    code = (
        "import sys, liarsdice.testing.pytest_plugin\n"
        "loaded = [m for m in ('hypothesis', 'liarsdice.testing.laws', 'liarsdice.testing.suite')"
        " if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_plugin_is_registered_through_the_pytest11_entry_point(
    pytestconfig: pytest.Config,
) -> None:
    plugin = pytestconfig.pluginmanager.get_plugin("liarsdice")
    assert plugin is not None and plugin.__name__ == "liarsdice.testing.pytest_plugin"


def test_last_failed_reruns_only_the_case_that_failed(pytester: pytest.Pytester) -> None:
    """Case names hold brackets (``liarsdice_laws[unfair]``, ``with[calza]``), which pytest reads
    back from its cache as parameters: the ids are made from text so that ``--lf`` finds them."""
    pytester.makepyfile(test_variant=textwrap.dedent(BROKEN))
    first = pytester.runpytest_inprocess("-p", "no:randomly", "-q")
    first.assert_outcomes(failed=1, passed=3, skipped=1)
    again = pytester.runpytest_inprocess("-p", "no:randomly", "--lf")
    again.assert_outcomes(failed=1)
    again.stdout.fnmatch_lines(["*run-last-failure: rerun previous 1 failure*"])


def test_pytest_starts_without_importing_hypothesis_or_numpy(pytester: pytest.Pytester) -> None:
    """The kit's extra (Hypothesis, numpy) is imported only when a module asks for the laws or
    the sweep: a pytest run without them installed must not need them."""
    pytester.makeconftest(
        """
        import sys

        def pytest_sessionfinish(session):
            heavy = sorted({"hypothesis", "numpy"} & set(sys.modules))
            print("heavy modules:", heavy or "none")
        """
    )
    pytester.makepyfile(test_plain="def test_nothing():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-s", "--props-shard", "1/2")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*heavy modules: none*"])
