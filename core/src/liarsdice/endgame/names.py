"""The players renamed by seat, so an endgame is identified up to their names.

An endgame is identified up to the players' names: :func:`renaming` gives, for a state, the
:class:`Renaming` of its players to ``P0``, ``P1``, ... by seat (every seat, the dead too: seat
order decides who opens next, and plugin state may name a player who is out), under which it is
keyed and solved. It renames every name of the state: the seats, the opener, who is on turn, the
bids, the rolls, the ruling, the sights, the winners, and in public and private plugin state
every string (a value, or a key below the plugin's fields) equal to a player's name. The seats
keep their order (the names are not rotated to the opener, nor sorted): a table where the second
seat opens is another endgame than one where the first does. A table whose players are named
``P0``, ``P1``, ... in seat order already is solved as it is. This assumes that the rules treat a
name as a label, never reading its text (its order, its length), and that a string in plugin
state equal to a player's name names that player. Where plugin state holds a name in a way that
cannot be renamed safely, the renaming is the identity and the endgame is keyed and solved under
the real names (correct, but shared only by tables with the same names): a string that contains a
player's name or a name renamed to without being one (``"ann's turn"``, ``"P0"`` at a table of ann
and bob), or a plugin's field (a key of ``state.plugins[plugin]``) that equals or contains one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

import attrs

from liarsdice.endgame.rounds import NodeKey, key_of
from liarsdice.models import (
    JSON,
    Action,
    BidAction,
    CallAction,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
    Sight,
)

_CANONICAL = tuple(f"P{seat}" for seat in range(16))
_NAMED = re.compile(r"(?<!\w)P\d+(?!\w)")
"""A canonical name in a sentence."""


def canonical_names(seats: int) -> tuple[str, ...]:
    """The names the players of ``seats`` seats are solved under, in seat order."""
    if seats <= len(_CANONICAL):
        return _CANONICAL[:seats]
    return tuple(f"P{seat}" for seat in range(seats))


class _Unsafe(Exception):
    """A name is held where it cannot be renamed."""


class Renaming:
    """The players' ``names`` in seat order, and the ``canonical`` names they are solved under
    (the same names, for the identity). Made by :func:`renaming` for a state, it renames that
    state (its view's, its round's root), whose names it has checked."""

    __slots__ = ("_back", "_plugins", "_to", "_words", "canonical", "names")

    def __init__(self, names: tuple[str, ...], canonical: tuple[str, ...]) -> None:
        self.names = names
        self.canonical = canonical
        self._to, self._back, self._words = _maps(names, canonical)
        self._plugins: tuple[object, JSON] | None = None
        """The last public plugin state renamed, and what it became."""

    @property
    def identity(self) -> bool:
        """Whether every name stays as it is."""
        return self.names == self.canonical

    def name(self, real: str) -> str:
        """The canonical name of the player named ``real``."""
        return self._to[real]

    def real(self, canonical: str) -> str:
        """The real name of the player solved under ``canonical``."""
        return self._back[canonical]

    def action(self, action: Action) -> Action:
        """``action`` (of a canonical player) as the real player's."""
        if self.identity:
            return action
        player = self._back[action.player]
        if isinstance(action, BidAction):
            return BidAction(player, action.bid, action.payload)
        if isinstance(action, CallAction):
            return CallAction(player, action.kind, action.payload)
        return attrs.evolve(action, player=player)

    def text(self, sentence: str) -> str:
        """``sentence`` (a reason, a position) with the canonical names in it made real."""
        if self.identity:
            return sentence
        return _NAMED.sub(lambda found: self._back.get(found[0], found[0]), sentence)

    def node_key(self, state: GameState) -> NodeKey:
        """The :func:`~liarsdice.endgame.rounds.node_key` of ``state`` (in a round) renamed,
        without building the state renamed."""
        round_ = state.round
        assert round_ is not None
        to = self._to
        return key_of(
            [[to[p.name], p.dice, p.alive] for p in state.players],
            state.dice_per_player,
            to[round_.opener],
            tuple((to[b.player], b.bid.quantity, b.bid.face) for b in round_.bids),
            self.plugins(state.plugins),
        )

    def plugins(self, plugins: Mapping[str, Mapping[str, JSON]]) -> JSON:
        """Public plugin state renamed (see the module)."""
        if self.identity:
            return plugins
        kept = self._plugins
        if kept is not None and kept[0] is plugins:
            return kept[1]
        renamed = {
            plugin: {self._field(field): self._json(value) for field, value in fields.items()}
            for plugin, fields in plugins.items()
        }
        self._plugins = (plugins, renamed)
        return renamed

    def state(self, state: GameState) -> GameState:
        """``state`` with every player renamed."""
        if self.identity:
            return state
        to = self._to
        return attrs.evolve(
            state,
            players=tuple(attrs.evolve(p, name=to[p.name]) for p in state.players),
            round=None if state.round is None else self._round(state.round),
            next_opener=None if state.next_opener is None else to[state.next_opener],
            winners=tuple(to[name] for name in state.winners),
            plugins=self.plugins(state.plugins),
        )

    def _round(self, round_: RoundState) -> RoundState:
        to = self._to
        ruling = round_.resolution
        return attrs.evolve(
            round_,
            opener=to[round_.opener],
            rolls={to[name]: roll for name, roll in round_.rolls.items()},
            turn=to[round_.turn],
            bids=tuple(attrs.evolve(b, player=to[b.player]) for b in round_.bids),
            resolution=None if ruling is None else self._ruling(ruling),
            shown={to[name]: dice for name, dice in round_.shown.items()},
            private={
                plugin: {to[name]: self._json(data) for name, data in players.items()}
                for plugin, players in round_.private.items()
            },
            sights=tuple(
                attrs.evolve(
                    sight,
                    viewer=None if sight.viewer is None else to[sight.viewer],
                    owners=tuple(to[name] for name in sight.owners),
                )
                for sight in round_.sights
            ),
        )

    def _ruling(self, ruling: Resolution) -> Resolution:
        to = self._to
        return attrs.evolve(
            ruling,
            caller=to[ruling.caller],
            bidder=None if ruling.bidder is None else to[ruling.bidder],
            losers=tuple(to[name] for name in ruling.losers),
            winners=tuple(to[name] for name in ruling.winners),
        )

    def safe(self, state: GameState) -> bool:
        """Whether every name in ``state`` can be renamed (see the module): a name of nobody at
        the table cannot."""
        try:
            self._check(state)
        except _Unsafe:
            return False
        return True

    def _check(self, state: GameState) -> None:
        self.plugins(state.plugins)
        names: list[str | None] = [state.next_opener, *state.winners]
        round_ = state.round
        if round_ is not None:
            names += [round_.opener, round_.turn, *round_.rolls, *round_.shown]
            names += [placed.player for placed in round_.bids]
            for players in round_.private.values():
                names += players
                for data in players.values():
                    self._json(data)
            for sight in round_.sights:
                names += [sight.viewer, *sight.owners]
            ruling = round_.resolution
            if ruling is not None:
                names += [ruling.caller, ruling.bidder, *ruling.losers, *ruling.winners]
        strangers = {name for name in names if name is not None} - self._to.keys()
        if strangers:
            raise _Unsafe(min(strangers))

    def _field(self, field: str) -> str:
        if self._words.search(field):
            raise _Unsafe(field)
        return field

    def _json(self, value: JSON) -> JSON:
        if isinstance(value, str):
            renamed = self._to.get(value)
            if renamed is not None:
                return renamed
            if self._words.search(value):
                raise _Unsafe(value)
            return value
        if isinstance(value, Mapping):
            return {self._json(key): self._json(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._json(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self._json(item) for item in value)
        return value


@functools.lru_cache(maxsize=1024)
def _maps(
    names: tuple[str, ...], canonical: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, str], re.Pattern[str]]:
    """The renaming of ``names`` to ``canonical`` and back, and what finds either in a string
    (made once per table: a renaming is made on every lookup)."""
    words = sorted({*names, *canonical}, key=len, reverse=True)
    return (
        dict(zip(names, canonical, strict=True)),
        dict(zip(canonical, names, strict=True)),
        re.compile("|".join(map(re.escape, words))),
    )


def renaming(state: GameState) -> Renaming:
    """How the players of ``state`` are renamed for the endgame solver: to ``P0``, ``P1``, ...
    by seat, or the identity where a name cannot be renamed safely (see the module)."""
    names = tuple(player.name for player in state.players)
    canonical = canonical_names(len(names))
    if names == canonical or len(set(names)) != len(names):
        return Renaming(names, names)
    found = Renaming(names, canonical)
    return found if found.safe(state) else Renaming(names, names)


KNOWN_FIELDS: Mapping[type, Sequence[str]] = {
    GameState: ("players", "dice_per_player", "round", "next_opener", "winners", "plugins"),
    PlayerState: ("name", "dice", "alive"),
    RoundState: (
        "number",
        "opener",
        "rolls",
        "dice_in_play",
        "turn",
        "bids",
        "resolution",
        "shown",
        "private",
        "sights",
    ),
    PlacedBid: ("player", "bid"),
    Resolution: ("call", "caller", "bidder", "bid", "count", "success", "losers", "winners"),
    Sight: ("viewer", "owners"),
}
"""The fields of the state :class:`Renaming` renames (a test checks the classes have no others)."""
