"""A plugin that raises inside a hook, or answers out of contract, is refused by the engine with an
error naming the plugin and the hook (issue 10): :class:`HookFailed` for an exception (chained),
:class:`BadHookResult` for an answer of the wrong type or naming a seat that is not at the table.
Every plugin here is a throwaway module installed with ``extra_variants`` and played through the
engine, as a stranger's plugin would be."""

from __future__ import annotations

import pickle
import types
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from random import Random
from typing import Any

import pytest

from liarsdice import (
    Bid,
    BidAction,
    CallAction,
    DiceChanged,
    Game,
    IllegalAction,
    Notice,
    PluginError,
    PluginStateSet,
    Resolution,
    Ruleset,
    TimeoutAction,
    VariantInfo,
    engine,
    hookimpl,
)
from liarsdice.contracts import CONTRACTS, call_one
from liarsdice.dispatch import WRAPPED, Hooks
from liarsdice.errors import BadHookResult, HookFailed
from liarsdice.testing import RandomChooser, play_game
from liarsdice.testing.plugins import extra_variants
from liarsdice.views import player_view

PLAYERS = ["Ann", "Ben", "Cid"]
ROLLS = {"Ann": [2, 2, 5], "Ben": [3, 2, 6], "Cid": [1, 4, 4]}


def impl(name: str, function: Callable[..., Any], **marks: Any) -> Callable[..., Any]:
    """``function`` as the hook implementation ``liarsdice_<name>`` (with pluggy ``marks``)."""
    function.__name__ = f"liarsdice_{name}"
    return hookimpl(**marks)(function)


def plugin(name: str, *functions: Callable[..., Any], **info: Any) -> types.ModuleType:
    """A plugin module holding ``functions``, with a ``VariantInfo`` from ``info``."""
    module = types.ModuleType(f"faulty_{name.replace('-', '_')}")
    for function in functions:
        setattr(module, function.__name__, function)

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(f"Faulty {name}", "a plugin that breaks a hook contract", **info)

    module.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    return module


@pytest.fixture
def build() -> Iterator[Callable[..., Ruleset]]:
    """``build(*hookimpls, name="faulty", others=(), variants=...)``: dice-loss plus a plugin
    holding the implementations (and any ``others`` plugins, as ``{name: module}``)."""
    with ExitStack() as stack:

        def make(
            *functions: Callable[..., Any],
            name: str = "faulty",
            others: dict[str, types.ModuleType] | None = None,
            info: dict[str, Any] | None = None,
        ) -> Ruleset:
            plugins = {name: plugin(name, *functions, **(info or {})), **(others or {})}
            stack.enter_context(extra_variants(plugins))
            return Ruleset.build(["dice-loss", *plugins])

        yield make


def game_of(rules: Ruleset) -> Game:
    game = Game(rules, PLAYERS, Random(1), dice_per_player=3)
    game.start_round(ROLLS)
    return game


def assert_names(error: PluginError, kind: type, plugin: str, hook: str, *fragments: str) -> None:
    assert type(error) is kind
    assert (error.plugin, error.hook) == (plugin, hook)
    message = str(error)
    assert message.startswith(f"{plugin}'s {hook} ")
    for fragment in fragments:
        assert fragment in message, message


# --- every game hook has a contract ------------------------------------------------------------


def test_every_game_hook_has_a_contract() -> None:
    assert {f"liarsdice_{hook}" for hook in Hooks.__annotations__} <= set(CONTRACTS)


# --- an exception inside a hook names the plugin and the hook ---------------------------------


def test_an_exception_in_settle_names_the_plugin_and_the_hook(build) -> None:
    def settle(resolution):
        return [DiceChanged("Zed", -1, "x")] if {}["Zed"] else None

    game = game_of(build(impl("settle", settle)))
    game.bid("Ann", 2, 2)
    with pytest.raises(HookFailed) as raised:
        game.call("Ben")
    assert_names(raised.value, HookFailed, "faulty", "liarsdice_settle")
    assert str(raised.value) == "faulty's liarsdice_settle raised KeyError: 'Zed'"
    assert isinstance(raised.value.__cause__, KeyError)
    assert isinstance(raised.value, PluginError) and isinstance(raised.value, RuntimeError)


def _boom(*args: Any) -> Any:
    raise ZeroDivisionError("division by zero")


@pytest.mark.parametrize(
    ("hook", "arguments", "play"),
    [
        ("bid_rank", "bid", lambda game: (game.bid("Ann", 2, 2), game.bid("Ben", 3, 2))),
        ("face_allowed", "state, face", lambda game: game.bid("Ann", 2, 2)),
        ("bid_problem", "bid", lambda game: game.bid("Ann", 2, 2)),
        ("call_problem", "call", lambda game: (game.bid("Ann", 2, 2), game.call("Ben"))),
        ("matching_faces", "state, face", lambda game: (game.bid("Ann", 2, 2), game.call("Ben"))),
        ("resolve_call", "call", lambda game: (game.bid("Ann", 2, 2), game.call("Ben"))),
        ("timeout", "player", lambda game: game.timeout("Ann")),
        ("next_opener", "resolution", lambda game: game.timeout("Ann")),
        ("bid_made", "bid", lambda game: game.bid("Ann", 2, 2)),
        ("next_turn", "player", lambda game: game.bid("Ann", 2, 2)),
        ("player_public", "player", lambda game: game.view("Ann")),
        ("round_started", "state", lambda game: None),
    ],
)
def test_an_exception_in_any_game_hook_is_a_hook_failure(
    build, hook: str, arguments: str, play: Callable[[Game], Any]
) -> None:
    function = eval(f"lambda {arguments}: _boom()", {"_boom": _boom})
    rules = build(impl(hook, function))
    with pytest.raises(HookFailed) as raised:
        play(game_of(rules))  # round_started is asked as the first round starts
    assert_names(
        raised.value,
        HookFailed,
        "faulty",
        f"liarsdice_{hook}",
        "raised ZeroDivisionError: division by zero",
    )


def test_an_exception_in_first_opener_names_the_plugin(build) -> None:
    rules = build(impl("first_opener", lambda state: state.players[7].name))
    with pytest.raises(HookFailed, match=r"faulty's liarsdice_first_opener raised IndexError"):
        engine.new_game(rules, PLAYERS, Random(0))


def test_a_payload_that_crashes_a_plugin_names_it(build) -> None:
    """A plugin that trusts the shape of its payload: the engine names it when it crashes."""

    def bid_problem(payload):
        payload.get("faulty", {}).get("show")  # trusts its payload to be an object
        return None

    def bid_made(player, payload):
        return [Notice("faulty", f"{player} shows {len(payload['faulty']['show'])}")]

    rules = build(
        impl("bid_problem", bid_problem), impl("bid_made", bid_made), info={"payloads": ("bid",)}
    )
    game = game_of(rules)
    with pytest.raises(HookFailed) as raised:
        game.act(BidAction("Ann", Bid(2, 2), {"faulty": 3}))
    assert_names(
        raised.value, HookFailed, "faulty", "liarsdice_bid_problem", "raised AttributeError"
    )
    game.act(BidAction("Ann", Bid(2, 2), {"faulty": {"show": [2]}}))  # the shape it expects
    with pytest.raises(HookFailed) as raised:
        game.act(BidAction("Ben", Bid(3, 2), {"faulty": {"show": 5}}))
    assert_names(raised.value, HookFailed, "faulty", "liarsdice_bid_made", "raised TypeError")
    assert game.state.round is not None and len(game.state.round.bids) == 1  # nothing applied


def test_deliberate_errors_pass_through_unchanged(build) -> None:
    """A plugin may raise the liarsdice errors on purpose (the revolver refuses a bad rigged
    pull with a PluginError of its own): they reach the caller as raised."""
    mine = PluginError("faulty: a rigged draw of 'maybe' is not a draw")

    def settle():
        raise mine

    def bid_problem(bid):
        if bid.quantity == 4:
            raise IllegalAction(["four is unlucky here"])

    game = game_of(build(impl("settle", settle), impl("bid_problem", bid_problem)))
    with pytest.raises(IllegalAction, match="four is unlucky here"):
        game.bid("Ann", 4, 2)
    game.bid("Ann", 2, 2)
    with pytest.raises(PluginError) as raised:
        game.call("Ben")
    assert raised.value is mine and raised.value.plugin is None


# --- an answer out of contract names the plugin, the hook, the answer and what was due ----------

BID = lambda game: game.bid("Ann", 2, 2)  # noqa: E731
RAISE = lambda game: (game.bid("Ann", 2, 2), game.bid("Ben", 3, 2))  # noqa: E731
CALL = lambda game: (game.bid("Ann", 2, 2), game.call("Ben"))  # noqa: E731
TIMEOUT = lambda game: game.timeout("Ann")  # noqa: E731
VIEW = lambda game: game.view("Ben")  # noqa: E731


@pytest.mark.parametrize(
    ("hook", "arguments", "answer", "play", "fragment"),
    [
        ("bid_rank", "bid", "high", RAISE, "returned 'high': expected a tuple of numbers"),
        ("bid_rank", "bid", ("a", 1), RAISE, "returned ('a', 1): expected a tuple of numbers"),
        ("bid_rank", "bid", 3, RAISE, "returned 3: expected a tuple of numbers"),
        ("face_allowed", "state", "", BID, "returned '': expected True, False, a reason"),
        ("face_allowed", "state", 1, BID, "returned 1: expected True, False, a reason"),
        ("bid_problem", "bid", False, BID, "returned False: expected None or a reason"),
        ("bid_problem", "bid", "", BID, "returned '': expected None or a reason"),
        ("bid_problem", "bid", ["too", "many"], BID, "returned ['too', 'many']: expected"),
        ("call_problem", "call", 0, CALL, "returned 0: expected None or a reason"),
        ("matching_faces", "state", [2, 1], CALL, "returned [2, 1]: expected a frozenset"),
        ("matching_faces", "state", frozenset({2, 7}), CALL, "expected a frozenset of faces 1-6"),
        ("matching_faces", "state", {"2"}, CALL, "expected a frozenset of faces 1-6"),
        (
            "resolve_call",
            "state",
            {"losers": ["Ann"]},
            CALL,
            "returned {'losers': ['Ann']}: expected a Resolution or None",
        ),
        ("timeout", "state", "Ann", TIMEOUT, "returned 'Ann': expected a Resolution or None"),
        ("next_opener", "state", 2, TIMEOUT, "returned 2: expected the name of a player"),
        ("next_opener", "state", "Zed", TIMEOUT, "named 'Zed', who is not a player at the table"),
        ("next_turn", "state", 1, BID, "returned 1: expected the name of a living player"),
        ("next_turn", "state", "Zed", BID, "named 'Zed', who is not a living player"),
        ("player_public", "state", ["bullets", 2], VIEW, "returned ['bullets', 2]: expected a"),
        ("player_public", "state", {"when": Random}, VIEW, "is not a JSON value"),
        ("player_public", "state", {1: "one"}, VIEW, "the key 1 is not a string"),
        ("settle", "state", DiceChanged("Ann", -1, "x"), CALL, "return a list of effects"),
        ("settle", "state", [42], CALL, "returned 42, which is not an effect"),
        ("round_started", "state", {"not": "effects"}, None, "return a list of effects"),
        ("bid_made", "state", "a notice", BID, "return a list of effects"),
    ],
)
def test_an_answer_out_of_contract_is_refused(
    build,
    hook: str,
    arguments: str,
    answer: Any,
    play: Callable[[Game], Any] | None,
    fragment: str,
) -> None:
    function = eval(f"lambda {arguments}: answer", {"answer": answer})
    rules = build(impl(hook, function))
    with pytest.raises(BadHookResult) as raised:
        game = game_of(rules)  # round_started (play None) is asked as the first round starts
        if play is not None:
            play(game)
    assert_names(raised.value, BadHookResult, "faulty", f"liarsdice_{hook}", fragment)


def test_a_face_refusal_that_never_changes_is_checked_when_the_ruleset_is_built(build) -> None:
    """``face_allowed(face)`` reads nothing that changes, so the ruleset asks it once, at build."""
    with pytest.raises(BadHookResult) as raised:
        build(impl("face_allowed", lambda face: "" if face == 6 else None))
    assert_names(raised.value, BadHookResult, "faulty", "liarsdice_face_allowed", "returned ''")


def test_a_seat_that_is_not_at_the_table_is_refused_naming_the_plugin(build) -> None:
    rules = build(impl("first_opener", lambda: "Zed"))
    with pytest.raises(BadHookResult) as raised:
        engine.new_game(rules, PLAYERS, Random(0))
    assert_names(
        raised.value,
        BadHookResult,
        "faulty",
        "liarsdice_first_opener",
        "named 'Zed', who is not a player at the table",
    )


def test_a_ruling_on_a_stranger_is_refused(build) -> None:
    def resolve_call(player, call, count):
        return Resolution(call, player, None, None, count, True, ("Zed",), (player,))

    game = game_of(build(impl("resolve_call", resolve_call)))
    game.bid("Ann", 2, 2)
    with pytest.raises(BadHookResult) as raised:
        game.call("Ben")
    assert_names(
        raised.value, BadHookResult, "faulty", "liarsdice_resolve_call", "losers name 'Zed'"
    )


def test_the_next_turn_of_a_player_who_is_out_is_refused(build) -> None:
    def next_turn(state):
        return next(p.name for p in state.players if not p.alive)

    rules = build(impl("next_turn", next_turn))
    state, _ = engine.new_game(rules, PLAYERS, Random(0), dice_per_player=1)
    state, _ = engine.start_round(
        rules, state, Random(0), rolls={"Ann": [2], "Ben": [3], "Cid": [4]}
    )
    state, _ = engine.step(rules, state, TimeoutAction("Ann"), Random(0))  # Ann is out
    state, _ = engine.start_round(rules, state, Random(0), rolls={"Ben": [3], "Cid": [4]})
    turn = state.round.turn  # type: ignore[union-attr]
    with pytest.raises(BadHookResult, match="named 'Ann', who is not a living player") as raised:
        engine.step(rules, state, BidAction(turn, Bid(1, 2)), Random(0))
    assert raised.value.plugin == "faulty"


@pytest.mark.parametrize(
    ("effect", "fragment"),
    [
        (DiceChanged("Zed", -1, "x"), "'Zed' is not at the table"),
        (DiceChanged("Ben", "one", "x"), "a change of dice is a whole number"),  # type: ignore[arg-type]
        (PluginStateSet("faulty", "when", Random), "holds only JSON values"),
    ],
)
def test_an_effect_that_cannot_apply_names_the_plugin(build, effect: Any, fragment: str) -> None:
    game = game_of(build(impl("settle", lambda: [effect])))
    game.bid("Ann", 2, 2)
    with pytest.raises(BadHookResult) as raised:
        game.call("Ben")
    assert_names(raised.value, BadHookResult, "faulty", "liarsdice_settle", fragment)


def test_a_long_answer_is_cut_short_in_the_message(build) -> None:
    game = game_of(build(impl("bid_problem", lambda: list(range(1000)))))
    with pytest.raises(BadHookResult) as raised:
        game.bid("Ann", 2, 2)
    shown = str(raised.value).split("returned ")[1].split(": expected")[0]
    assert shown.startswith("[0, 1, 2") and shown.endswith("...") and len(shown) == 80


# --- per-plugin hooks asked through dispatch.call_one -------------------------------------------


def test_payload_choices_out_of_contract_name_the_plugin(build) -> None:
    rules = build(impl("payload_choices", lambda: 5), info={"payloads": ("bid",)})
    game = game_of(rules)
    with pytest.raises(BadHookResult) as raised:
        engine.payload_choices(rules, game.state, BidAction("Ann", Bid(2, 2)))
    assert_names(
        raised.value, BadHookResult, "faulty", "liarsdice_payload_choices", "returned 5: expected"
    )


def test_payload_choices_that_raise_name_the_plugin(build) -> None:
    rules = build(
        impl("payload_choices", lambda state: state.plugins["faulty"]["k"]),
        info={"payloads": ("bid",)},
    )
    game = game_of(rules)
    with pytest.raises(HookFailed, match=r"faulty's liarsdice_payload_choices raised KeyError"):
        engine.payload_choices(rules, game.state, BidAction("Ann", Bid(2, 2)))


def test_a_rules_text_that_is_not_text_is_refused_by_call_one(build) -> None:
    rules = build(impl("describe", lambda: 42))
    with pytest.raises(BadHookResult) as raised:
        call_one("faulty", rules.pm, "liarsdice_describe", options=rules.options)
    assert_names(raised.value, BadHookResult, "faulty", "liarsdice_describe", "returned 42")


# --- wrappers: the merged answer is checked, as from "(a wrapper)" -------------------------------


def test_a_wrapper_answer_out_of_contract_is_refused_as_from_a_wrapper(build) -> None:
    def next_turn():
        yield
        return "Zed"

    game = game_of(build(impl("next_turn", next_turn, wrapper=True)))
    with pytest.raises(BadHookResult) as raised:
        game.bid("Ann", 2, 2)
    assert (raised.value.plugin, raised.value.hook) == (WRAPPED, "liarsdice_next_turn")
    assert "(a wrapper)'s liarsdice_next_turn named 'Zed', who is not a living player" in str(
        raised.value
    )


def test_a_wrapper_collect_all_answer_is_checked_answer_by_answer(build) -> None:
    def bid_problem():
        problems = yield
        return [*problems, False]

    game = game_of(build(impl("bid_problem", bid_problem, wrapper=True)))
    with pytest.raises(
        BadHookResult, match=r"\(a wrapper\)'s liarsdice_bid_problem returned False"
    ):
        game.bid("Ann", 2, 2)


def test_an_exception_under_a_wrapper_names_the_plugin_it_was_raised_in(build) -> None:
    def settle():
        answers = yield
        return answers

    def crash(resolution):
        return [DiceChanged(resolution.losers[5], -1, "x")]

    others = {"crash": plugin("crash", impl("settle", crash))}
    game = game_of(build(impl("settle", settle, wrapper=True), others=others))
    game.bid("Ann", 2, 2)
    with pytest.raises(HookFailed) as raised:
        game.call("Ben")
    assert_names(raised.value, HookFailed, "crash", "liarsdice_settle", "raised IndexError")


def test_an_exception_in_a_wrapper_itself_names_the_wrapper(build) -> None:
    def matching_faces(face):
        faces = yield
        return faces | {int("seven")}

    game = game_of(build(impl("matching_faces", matching_faces, wrapper=True)))
    game.bid("Ann", 2, 2)
    with pytest.raises(HookFailed) as raised:
        game.call("Ben")
    assert_names(raised.value, HookFailed, "faulty", "liarsdice_matching_faces", "ValueError")


# --- good plugins still pass ----------------------------------------------------------------------


def test_unusual_but_good_answers_pass(build) -> None:
    """A set of faces, float rank keys, a tuple of effects, a seat that is out for the next
    opener: all within the contracts."""

    def matching_faces(face):
        return {face, 1} if face != 1 else None

    def bid_rank(bid):
        return (float(bid.quantity), bid.face / 10)

    def settle(resolution):
        return (Notice("faulty", "settled"),)

    def player_public(state, player):
        return {"seat": state.seat(player), "tags": ["a", 1, 2.5, None, True, {"x": []}]}

    rules = build(
        impl("matching_faces", matching_faces),
        impl("bid_rank", bid_rank),
        impl("settle", settle),
        impl("player_public", player_public),
    )
    game = game_of(rules)
    game.bid("Ann", 2, 2)
    game.call("Ben")  # 2 twos and a one: the bid stands, Ben loses a die
    assert game.state.player("Ben").dice == 2
    assert player_view(rules, game.state, "Ann").seats[2].public["seat"] == 2
    for seed in range(3):
        played = play_game(rules, PLAYERS, 2, seed, RandomChooser(seed))
        assert played.complete and all(step.error is None for step in played.steps)


# --- the laws' driver records the culprit -------------------------------------------------------


def test_the_laws_driver_records_the_message_naming_the_plugin(build) -> None:
    def settle(state, resolution):
        return [DiceChanged(state.players[9].name, -1, "x")]

    rules = build(impl("settle", settle))
    played = play_game(rules, PLAYERS, 2, 0, RandomChooser(0), weights=(1, 0, 0))
    errors = [step.error for step in played.steps if step.error is not None]
    assert errors == [
        "HookFailed: faulty's liarsdice_settle raised IndexError: tuple index out of range"
    ]
    assert not played.complete


# --- the errors themselves ----------------------------------------------------------------------


def test_the_errors_keep_the_plugin_and_the_hook_through_pickling() -> None:
    for error in (
        HookFailed(
            "x's liarsdice_settle raised KeyError: 'Zed'", plugin="x", hook="liarsdice_settle"
        ),
        BadHookResult("y's liarsdice_bid_rank returned 0", plugin="y", hook="liarsdice_bid_rank"),
        PluginError("plain"),
    ):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert (again.plugin, again.hook) == (error.plugin, error.hook)


def test_a_call_with_nobody_to_rule_on_it_names_the_hook(build) -> None:
    rules = build(impl("register_calls", lambda calls: calls.add("exact", "exactly right")))
    game = game_of(rules)
    game.bid("Ann", 2, 2)
    with pytest.raises(PluginError, match="no plugin resolves call 'exact'") as raised:
        game.act(CallAction("Ben", "exact"))
    assert (raised.value.plugin, raised.value.hook) == (None, "liarsdice_resolve_call")
