"""liarsdice.options: option declarations, value parsing and the registries."""

from __future__ import annotations

import pytest

from liarsdice.errors import BadOptionValue
from liarsdice.options import CallKind, CallRegistry, Option, OptionRegistry, VariantInfo

FLAG = Option("standard", "wild_ones", True, "ones are wild")
COUNT = Option("revolver", "bullets", 1, "initial bullets", minimum=1, maximum=6)
MODE = Option("calza", "reward", "regain-die", "reward", choices=("regain-die", "table-pays"))


def test_key_is_plugin_dot_name() -> None:
    assert FLAG.key == "standard.wild_ones"


@pytest.mark.parametrize("text", ["true", "TRUE", " yes ", "on", "1"])
def test_bool_from_true_text(text: str) -> None:
    assert FLAG.parse(text) is True


@pytest.mark.parametrize("text", ["false", "False", "no", "off", "0"])
def test_bool_from_false_text(text: str) -> None:
    assert FLAG.parse(text) is False


@pytest.mark.parametrize("value", [True, False])
def test_bool_native_values_pass(value: bool) -> None:
    assert FLAG.parse(value) is value


@pytest.mark.parametrize("value", ["maybe", "", 1, 0, None, 1.0, [True]])
def test_bool_refuses_anything_else_naming_the_option(value: object) -> None:
    with pytest.raises(BadOptionValue, match=r"standard\.wild_ones takes a bool"):
        FLAG.parse(value)


def test_int_parses_text_and_checks_bounds() -> None:
    assert COUNT.parse("3") == 3
    assert COUNT.parse(" 6 ") == 6
    assert COUNT.parse(2) == 2
    with pytest.raises(BadOptionValue, match=r"revolver\.bullets must be at least 1"):
        COUNT.parse(0)
    with pytest.raises(BadOptionValue, match=r"revolver\.bullets must be at most 6"):
        COUNT.parse("7")
    with pytest.raises(BadOptionValue, match=r"revolver\.bullets takes an? int"):
        COUNT.parse("two")


@pytest.mark.parametrize("value", [True, 2.0, "2.5", None])
def test_int_refuses_bools_floats_and_junk(value: object) -> None:
    with pytest.raises(BadOptionValue, match=r"revolver\.bullets"):
        COUNT.parse(value)


def test_str_choices() -> None:
    assert MODE.parse("table-pays") == "table-pays"
    with pytest.raises(
        BadOptionValue, match=r"calza\.reward must be one of regain-die, table-pays"
    ):
        MODE.parse("free-beer")
    with pytest.raises(BadOptionValue, match=r"calza\.reward takes a str"):
        MODE.parse(3)


def test_describe_is_one_line_with_type_default_and_help() -> None:
    assert FLAG.describe() == "standard.wild_ones (bool, default true): ones are wild"
    assert COUNT.describe() == "revolver.bullets (int, default 1): initial bullets"
    assert MODE.describe() == "calza.reward (regain-die|table-pays, default regain-die): reward"


def test_registry_prefixes_with_the_plugin_name() -> None:
    registry = OptionRegistry("revolver")
    registry.add("bullets", 1, "initial bullets", minimum=1, maximum=6)
    registry.add("lose_die", False, "also lose a die")
    assert [o.key for o in registry.options] == ["revolver.bullets", "revolver.lose_die"]
    assert registry.options[0].maximum == 6


def test_registry_refuses_a_default_of_an_unsupported_type() -> None:
    registry = OptionRegistry("x")
    with pytest.raises(TypeError, match=r"x\.ratio"):
        registry.add("ratio", 0.5, "a float")
    assert registry.options == []


def test_registry_refuses_a_default_outside_its_own_constraints() -> None:
    registry = OptionRegistry("x")
    with pytest.raises(BadOptionValue, match=r"x\.n must be at least 1"):
        registry.add("n", 0, "count", minimum=1)
    with pytest.raises(BadOptionValue, match=r"x\.mode must be one of a, b"):
        registry.add("mode", "c", "mode", choices=("a", "b"))
    assert registry.options == []


def test_call_registry_records_the_plugin() -> None:
    calls = CallRegistry("calza")
    calls.add("exact", "the bid is exactly right")
    assert calls.calls == [CallKind("calza", "exact", "the bid is exactly right")]


def test_variant_info_defaults_to_no_requirements_and_no_economics() -> None:
    info = VariantInfo("T", "S")
    assert info.requires == ()
    assert info.conflicts == ()
    assert info.economics is False
