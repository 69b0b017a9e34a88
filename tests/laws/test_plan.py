"""The sweep's plan (liarsdice.testing.suite.plan): covering arrays over the installed variants with
``Ruleset.build`` as the constraint, checked independently of how they were made; the cache file;
shards; random samples."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from liarsdice import Ruleset
from liarsdice.errors import RulesetError
from liarsdice.ruleset import installed
from liarsdice.testing.suite import plan as plans
from liarsdice.testing.suite.plan import Request, factors, load_plan, make_plan

SMALL = ("aces-switch", "calza", "dice-loss", "ones-locking", "revolver", "standard")


def small() -> dict[str, object]:
    return {name: variant for name, variant in installed().items() if name in SMALL}


def held(plan: plans.Plan) -> set[tuple[str, object]]:
    return {
        (name, value)
        for row in plan.rows
        for name, value in [*((v, True) for v in row.variants), *(row.options or {}).items()]
    }


def test_a_one_way_plan_uses_every_variant_and_every_option_value() -> None:
    plan = make_plan(Request("cover", 1))
    values = {(f.name, v) for f in factors(installed()) if "." in f.name for v in f.values}
    variants = {(name, True) for name in installed() if name != "standard"}
    assert values | variants <= held(plan)
    assert plan.tuples == plan.covered and not plan.uncoverable
    for row in plan.rows:
        Ruleset.build(row.variants, row.options)  # every row builds


def test_a_pairwise_plan_holds_every_pair_a_ruleset_can_hold() -> None:
    """Checked pair by pair against Ruleset.build, not against the generator's own account."""
    known = small()
    plan = make_plan(Request("cover", 2, seed=3), known)  # type: ignore[arg-type]
    rows = []
    for row in plan.rows:
        Ruleset.build(row.variants, row.options)
        full = {name: name in row.variants for name in known if name != "standard"}
        rows.append({**full, **(row.options or {})})
    reasons = dict(plan.uncoverable)
    values = [(f.name, v) for f in factors(known) for v in f.values]  # type: ignore[arg-type]
    checked = 0
    for pair in itertools.combinations(values, 2):
        if pair[0][0] == pair[1][0]:
            continue
        if any(all(row.get(n, object()) == v for n, v in pair) for row in rows):
            checked += 1
            continue
        if any(
            name in known and value is False and other.partition(".")[0] == name
            for name, value in pair
            for other, _ in pair
        ):
            continue  # an option beside its own variant out: no such pair
        assert pair in reasons, pair
        inn = sorted({n.partition(".")[0] for n, v in pair if v is not False} - {"standard"})
        pinned = {n: v for n, v in pair if n not in known}
        with pytest.raises(RulesetError):
            Ruleset.build(inn, pinned)  # refused at least in its smallest form
    assert checked == plan.covered


def test_a_pairwise_plan_says_why_a_pair_cannot_be_held() -> None:
    plan = make_plan(Request("cover", 2), small())  # type: ignore[arg-type]
    reasons = dict(plan.uncoverable)
    assert reasons[(("aces-switch", True), ("ones-locking", True))] == (
        "aces-switch conflicts with ones-locking: choose one of them"
    )
    assert reasons[(("revolver.chambers", 2), ("revolver.initial_bullets", 3))] == (
        "revolver.initial_bullets=3 is more than revolver.chambers=2"
    )
    assert "2-tuples of variants and option values covered" in plan.summary()


def test_the_plan_is_kept_in_a_file_keyed_by_the_request_and_the_plugins(tmp_path: Path) -> None:
    request = Request("cover", 1, seed=4)
    first, read = load_plan(request, tmp_path)
    assert not read and len(list(tmp_path.glob("plan-*.json"))) == 1
    again, read = load_plan(request, tmp_path)
    assert read and again == first
    other, read = load_plan(Request("cover", 1, seed=5), tmp_path)
    assert not read and other.key != first.key


def test_shards_split_the_rows_evenly_and_cover_them_once() -> None:
    plan = make_plan(Request("cover", 1))
    shards = [plan.shard(number, 3) for number in (1, 2, 3)]
    ids = [row.id for shard in shards for row in shard]
    assert sorted(ids) == sorted(row.id for row in plan.rows) and len(set(ids)) == len(ids)
    assert max(map(len, shards)) - min(map(len, shards)) <= 1
    with pytest.raises(ValueError, match="shard 4/3"):
        plan.shard(4, 3)


def test_samples_are_random_rulesets_that_build_the_same_for_a_seed() -> None:
    one = make_plan(Request("cover", 1, sample=6, seed=9))
    two = make_plan(Request("cover", 1, sample=6, seed=9))
    sampled = [row for row in one.rows if row.id.startswith("s")]
    assert len(sampled) == 6 and sampled == [row for row in two.rows if row.id.startswith("s")]
    for row in sampled:
        Ruleset.build(row.variants, row.options)


def test_every_combination_mode_lists_the_valid_combinations_with_options_drawn() -> None:
    known = small()
    plan = make_plan(Request("all"), known)  # type: ignore[arg-type]
    assert all(row.options is None for row in plan.rows)
    names = {row.variants for row in plan.rows}
    assert ("aces-switch", "dice-loss") in names and ("aces-switch", "ones-locking") not in names
