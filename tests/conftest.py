"""Shared fixtures for the core unit tests and the golden scenarios.

``install_plugins`` injects fake variant plugins by replacing the entry-point lookup of
:mod:`liarsdice.discovery` and clearing its caches before and after the test, so a test can build
rulesets from plugins written inline (missing requirements, conflicts, broken plugins, ...).
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from liarsdice import Ruleset, VariantInfo, discovery, hookimpl
from liarsdice.testing.plugins import extra_variants

# Solved endgames and the hard bot's books from this run's memory (tox gives its own directory),
# never the developer's cache: a book built there would change what the hard bot plays here.
os.environ.setdefault("LIARSDICE_ENDGAME_CACHE", "")


class FakeEntryPoint:
    """Just enough of ``importlib.metadata.EntryPoint``: ``load()`` and ``dist.name``."""

    def __init__(self, name: str, plugin: Any, distribution: str) -> None:
        self.name = name
        self._plugin = plugin
        self.dist = types.SimpleNamespace(name=distribution)

    def load(self) -> Any:
        if isinstance(self._plugin, BaseException):
            raise self._plugin
        return self._plugin


def _clear_caches() -> None:
    for name in ("installed", "_registered"):
        cached = getattr(discovery, name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def make_plugin(name: str, *functions: Callable[..., Any], **info: Any) -> types.ModuleType:
    """A plugin module holding ``functions`` (hookimpls, found by their ``__name__``).

    Unless a ``liarsdice_variant_info`` is among them, one is added from ``info`` (keyword
    arguments of :class:`VariantInfo`; ``info=None`` adds none).
    """
    module = types.ModuleType(f"fake_{name.replace('-', '_')}")
    for function in functions:
        setattr(module, function.__name__, function)
    if "info" in info and info["info"] is None:
        return module
    if not hasattr(module, "liarsdice_variant_info"):
        variant_info = VariantInfo(
            title=info.pop("title", f"Fake {name}"),
            summary=info.pop("summary", f"fake plugin {name}"),
            **info,
        )

        @hookimpl
        def liarsdice_variant_info() -> VariantInfo:
            return variant_info

        module.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    return module


@pytest.fixture
def plugin_factory() -> Callable[..., types.ModuleType]:
    """:func:`make_plugin`, as a fixture (conftest modules are not importable by the tests)."""
    return make_plugin


@pytest.fixture
def install_plugins(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Callable[[Mapping[str, Any]], None]]:
    """``install_plugins({"name": plugin_or_exception, ...})`` adds fake entry points.

    The real entry points (``standard``, ``dice-loss``) stay installed. An exception instead of a
    plugin makes that entry point fail to load.
    """
    real = dict(discovery._entry_points())
    _clear_caches()

    def install(plugins: Mapping[str, Any], distribution: str = "fake-dist") -> None:
        entries: dict[str, Any] = dict(real)
        for name, plugin in plugins.items():
            entries[name] = FakeEntryPoint(name, plugin, distribution)
        ordered = dict(sorted(entries.items()))
        monkeypatch.setattr(discovery, "_entry_points", lambda: dict(ordered))
        _clear_caches()

    yield install
    monkeypatch.undo()
    _clear_caches()


@pytest.fixture(scope="session")
def dice_loss_rules() -> Ruleset:
    """The baseline with dice loss: the smallest playable ruleset."""
    return Ruleset.build(["dice-loss"])


@pytest.fixture(scope="session")
def natural_rules() -> Ruleset:
    """Baseline + dice loss with ones as an ordinary (lowest) face: ``standard.wild_ones=false``."""
    return Ruleset.build(["dice-loss"], {"standard.wild_ones": False})


def preset_rules(name: str) -> Ruleset:
    """Preset ``name``'s rules at any table size: its variants and options without the preset,
    so without the preset's table bounds (seed 004's perudo is for 5 dice each; a test may want
    its rules with 2)."""
    preset = discovery.find_preset(name)
    return Ruleset.build(preset.variants, dict(preset.options))


@pytest.fixture(scope="session")
def rules_of_preset() -> Callable[[str], Ruleset]:
    """:func:`preset_rules`: a preset's rules at any table size."""
    return preset_rules


def two_faces_plugin() -> types.ModuleType:
    """A variant under which only ones and twos may be bid: a game small enough to solve."""
    plugin = types.ModuleType("two_faces")

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(title="Two faces", summary="Only ones and twos may be bid.")

    @hookimpl
    def liarsdice_face_allowed(face: int) -> str | None:
        return None if face <= 2 else "only ones and twos may be bid"

    plugin.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    plugin.liarsdice_face_allowed = liarsdice_face_allowed  # type: ignore[attr-defined]
    return plugin


@pytest.fixture
def two_faces_installed() -> Iterator[None]:
    """The two-faces variant installed for the test, as an entry point would (the CLI finds it)."""
    with extra_variants({"two-faces": two_faces_plugin()}):
        yield


@pytest.fixture(scope="session")
def two_faces_rules() -> Ruleset:
    """Dice loss with no wild face, bids on ones and twos only: 4 rungs at 2 x 1."""
    with extra_variants({"two-faces": two_faces_plugin()}):
        return Ruleset.build(["two-faces", "dice-loss"], {"standard.wild_ones": False})
