"""pytest plugin: run the rule laws against a variant, alone and with every compatible one.

Installed with the core (entry point ``pytest11``), it does nothing until a test module asks. One
line in any test module of a plugin package asks::

    pytestmark = pytest.mark.liarsdice_variant("difference")

or, without importing pytest, in a test module or in a ``conftest.py``::

    liarsdice_variant = "difference"

Each adds a collector ``liarsdice_laws[difference]`` to that module (or conftest file), with one
test item per case of :func:`liarsdice.testing.suite.law_cases`:

- ``alone``: the variant with the baseline (plus its requirements, and an economics plugin such as
  ``dice-loss`` when it has none of its own);
- ``does-something``: the variant changes at least one legal move or ruling, found by a seeded
  search over games (:mod:`liarsdice.testing.relevance`);
- ``isolation``: the variant keeps nothing between games (:mod:`liarsdice.testing.isolation`);
- ``anticlockwise``: seeded games of the variant beside a test variant that turns play
  anticlockwise keep every law, among them that the variant's "next player" is the one who plays
  next (:mod:`liarsdice.testing.anticlockwise`; skipped for a variant that decides the turn);
- ``rules-text``: its rules text and behaviour at each option value match the golden file
  ``rules_text/<variant>.md`` beside the module (:mod:`liarsdice.testing.snapshots`; written with
  ``--accept-rules-text``, skipped until there is one);
- ``with[other]``: with each other installed variant (skipped, with ``Ruleset.build``'s reason,
  where it refuses the two together);
- ``any-combination``: within any valid combination of the installed variants.

Each item draws whole games with Hypothesis, option values drawn from their declarations, and
checks every rule law; a failure shows one message: the
:class:`~liarsdice.testing.laws.LawViolation` (the law, the ruleset, a small example, and the
plugin and hook when a hook raised or answered out of contract), Hypothesis's shrunk game and the
command that replays it (:mod:`liarsdice.testing.replay`; ``--props-export DIR`` also writes it
as a scenario file). The
Hypothesis profile comes from ``$HYPOTHESIS_PROFILE`` (``fast`` by default, ``thorough`` for long
runs). The marker takes several names and these keywords:

- ``combine=False``: only ``alone`` and the seeded cases;
- ``laws=[...]``: game laws of the plugin's own, ``law(rules, steps)`` raising ``LawViolation``,
  checked on every game beside the shipped laws (``ruleset_laws=[...]``: ``law(rules)``);
- ``exclude=("game_has_one_winner", ...)``: shipped laws left out, by function name;
- ``plugin=module``: check a plugin that has no entry point yet, installed for the test with
  :func:`liarsdice.testing.plugins.extra_variants` (``plugins={"name": module, ...}`` installs
  several).

A module that sets ``liarsdice_sweep = True`` gets the ``tox -e props`` sweep instead
(:mod:`liarsdice.testing.pytest_sweep`).

The laws need Hypothesis: ``pip install 'liarsdice-rules[testing]'``. This module imports
neither Hypothesis nor the engine until a module asks for the laws.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from liarsdice.testing.pytest_sweep import child_id

if TYPE_CHECKING:
    from liarsdice.testing.suite import LawCase

MARKER = "liarsdice_variant"
SWEEP = "liarsdice_sweep"


def pytest_addoption(parser: pytest.Parser) -> None:
    from liarsdice.testing import pytest_sweep

    group = parser.getgroup("liarsdice", "liarsdice rule laws")
    group.addoption(
        "--accept-rules-text",
        action="store_true",
        help="write each variant's rules-text snapshot (rules_text/<variant>.md) instead of "
        "comparing it",
    )
    group.addoption(
        "--props-export",
        metavar="DIR",
        help="write the game of each law that fails as a scenario file in DIR",
    )
    pytest_sweep.add_options(group)


def pytest_configure(config: pytest.Config) -> None:
    from liarsdice.testing import pytest_sweep

    config.addinivalue_line(
        "markers",
        f"{MARKER}(*names, combine=True, laws=(), ruleset_laws=(), exclude=(), plugin=None, "
        "plugins=None): run the liarsdice rule laws (and these extra laws, but the excluded ones) "
        "against these variants, alone and combined with every compatible installed variant",
    )
    pytest_sweep.cover_of(config), pytest_sweep.shard_of(config)  # a bad value stops here
    config.pluginmanager.register(pytest_sweep.SweepReporter(config), "liarsdice-sweep")


KEYWORDS = frozenset({"combine", "laws", "ruleset_laws", "exclude", "plugin", "plugins"})


def _laws(collector: pytest.Collector, keyword: str, given: Any) -> tuple[Any, ...]:
    """The extra laws a marker keyword gives: callables, one or several."""
    laws = (given,) if callable(given) else tuple(given)
    if not all(callable(law) for law in laws):
        raise collector.CollectError(
            f"{MARKER}({keyword}=...) takes law functions, as in {keyword}=[my_law]; got {given!r}"
        )
    return laws


def _requests(name: str, obj: Any) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """The law requests a module attribute makes: ``(variant names, options)`` per request."""
    if name == MARKER:
        names = (obj,) if isinstance(obj, str) else tuple(obj)
        return [(names, {})]
    marks = obj if isinstance(obj, list | tuple) else [obj]
    found = []
    for each in marks:
        mark = getattr(each, "mark", each)
        if isinstance(mark, pytest.Mark) and mark.name == MARKER:
            found.append((tuple(mark.args), dict(mark.kwargs)))
    return found


def _exclude(collector: pytest.Collector, given: Any) -> tuple[str, ...]:
    """The shipped laws a marker leaves out, by name; an unknown name is a collection error."""
    from liarsdice.testing.running import without

    names = (given,) if isinstance(given, str) else tuple(given)
    try:
        without(names)
    except ValueError as error:
        raise collector.CollectError(f"{MARKER}(exclude=...): {error}") from error
    return names


def pytest_pycollect_makeitem(
    collector: pytest.Module | pytest.Class, name: str, obj: Any
) -> list[pytest.Collector] | None:
    """A module (or class) that sets ``pytestmark`` with our marker, or ``liarsdice_variant``,
    gets a :class:`LawSuite` per variant named; one that sets ``liarsdice_sweep = True`` gets the
    sweep."""
    if name == SWEEP and obj is True:
        from liarsdice.testing.pytest_sweep import SweepSuite

        return [SweepSuite.from_parent(collector, name=SWEEP, nodeid=child_id(collector, SWEEP))]
    if name not in ("pytestmark", MARKER):
        return None
    suites: list[pytest.Collector] = []
    for names, options in _requests(name, obj):
        if not names or not all(isinstance(n, str) for n in names):
            raise collector.CollectError(
                f"{MARKER} needs variant names, as in {MARKER}('my-variant'); got {names!r}"
            )
        unknown = set(options) - KEYWORDS
        if unknown:
            raise collector.CollectError(
                f"{MARKER}: unknown arguments {sorted(unknown)}; it takes {sorted(KEYWORDS)}"
            )
        if options.get("plugin") is not None and len(names) != 1:
            raise collector.CollectError(f"{MARKER}(plugin=...) takes exactly one variant name")
        extras = dict(options.get("plugins") or {})
        if options.get("plugin") is not None:
            extras[names[0]] = options["plugin"]
        laws = _laws(collector, "laws", options.get("laws", ()))
        ruleset_laws = _laws(collector, "ruleset_laws", options.get("ruleset_laws", ()))
        exclude = _exclude(collector, options.get("exclude", ()))
        for variant in names:
            suites.append(
                LawSuite.from_parent(
                    collector,
                    name=f"liarsdice_laws[{variant}]",
                    nodeid=child_id(collector, f"liarsdice_laws[{variant}]"),
                    variant=variant,
                    combine=bool(options.get("combine", True)),
                    extras=extras,
                    laws=laws,
                    ruleset_laws=ruleset_laws,
                    exclude=exclude,
                )
            )
    return suites or None


def _conftest_variants(path: Path) -> tuple[str, ...]:
    """The names a ``conftest.py`` assigns to ``liarsdice_variant`` (read, not imported)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    if MARKER not in text:
        return ()
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == MARKER for target in node.targets
        ):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            names = (value,) if isinstance(value, str) else value
            if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
                raise ValueError(
                    f"{path}: {MARKER} must be a variant name or a list of names, written out"
                )
            return tuple(names)
    return ()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> LawFile | None:
    """A ``conftest.py`` that sets ``liarsdice_variant`` gets the laws too."""
    if file_path.name != "conftest.py":
        return None
    try:
        variants = _conftest_variants(file_path)
    except ValueError as error:
        return LawFile.from_parent(parent, path=file_path, variants=(), problem=str(error))
    if not variants:
        return None
    return LawFile.from_parent(parent, path=file_path, variants=variants)


class LawFile(pytest.File):
    """The law suites a ``conftest.py`` asks for."""

    def __init__(self, *, variants: tuple[str, ...], problem: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variants = variants
        self.problem = problem

    def collect(self) -> Sequence[LawSuite]:
        if self.problem:
            raise self.CollectError(self.problem)
        return [
            LawSuite.from_parent(
                self,
                name=f"liarsdice_laws[{variant}]",
                nodeid=child_id(self, f"liarsdice_laws[{variant}]"),
                variant=variant,
            )
            for variant in self.variants
        ]


@contextlib.contextmanager
def _installed(extras: dict[str, Any]) -> Iterator[None]:
    """With ``extras`` (variant name -> plugin), install them for the duration."""
    if not extras:
        yield
        return
    from liarsdice.testing.plugins import extra_variants

    with extra_variants(extras):
        yield


class LawSuite(pytest.Collector):
    """The law checks for one variant: one :class:`LawItem` per case."""

    def __init__(
        self,
        *,
        variant: str,
        combine: bool = True,
        extras: dict[str, Any] | None = None,
        laws: tuple[Any, ...] = (),
        ruleset_laws: tuple[Any, ...] = (),
        exclude: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.variant = variant
        self.combine = combine
        self.extras = extras or {}
        self.laws = laws
        self.ruleset_laws = ruleset_laws
        self.exclude = exclude

    def collect(self) -> Sequence[LawItem]:
        from liarsdice.errors import PluginError, RulesetError
        from liarsdice.testing.suite import law_cases

        with _installed(self.extras):
            try:
                cases = law_cases(self.variant, combine=self.combine)
            except (RulesetError, PluginError) as error:
                raise self.CollectError(f"liarsdice laws for {self.variant}: {error}") from error
        return [
            LawItem.from_parent(self, name=case.name, nodeid=child_id(self, case.name), case=case)
            for case in cases
        ]

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice rule laws for {self.variant}"


class LawItem(pytest.Item):
    """Run every rule law on games drawn for one :class:`~liarsdice.testing.suite.LawCase`."""

    def __init__(self, *, case: LawCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.examples = 0

    def runtest(self) -> None:
        from liarsdice.testing import snapshots
        from liarsdice.testing.running import Replays, run_case
        from liarsdice.testing.suite import ANTICLOCKWISE_CASE, SNAPSHOT_CASE

        parent = self.parent
        assert isinstance(parent, LawSuite)
        case = self.case
        if case.refusal and case.name == ANTICLOCKWISE_CASE:
            pytest.skip(f"{case.id} does not apply: {case.refusal}")
        if case.refusal:
            pytest.skip(f"Ruleset.build refuses {' + '.join(case.include)}: {case.refusal}")
        if case.name == SNAPSHOT_CASE:
            path = snapshots.path_for(self.path.parent, case.variant)
            with _installed(parent.extras):
                done = snapshots.check(
                    case.variant, path, accept=self.config.getoption("accept_rules_text")
                )
            if not done:
                pytest.skip(
                    f"no rules-text snapshot of {case.variant} yet: write {path} with "
                    "`pytest --accept-rules-text` and commit it"
                )
            self.user_properties.append(("snapshot", done))
            return
        export = self.config.getoption("props_export")
        with _installed(parent.extras):
            run = run_case(
                case,
                laws=parent.laws,
                ruleset_laws=parent.ruleset_laws,
                exclude=parent.exclude,
                database_key=self.nodeid,
                replays=Replays(parent.extras, parent.laws, Path(export) if export else None),
            )
        self.examples = run.examples
        self.user_properties.append(("examples", run.examples))
        if run.found:
            self.user_properties.append(("difference", run.found))

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        from liarsdice.errors import PluginError, RulesetError
        from liarsdice.testing.laws import LawViolation
        from liarsdice.testing.running import KitError, MissingHypothesis

        ours = LawViolation | MissingHypothesis | KitError | PluginError | RulesetError
        error = excinfo.value
        errors = list(error.exceptions) if isinstance(error, BaseExceptionGroup) else [error]
        if not any(isinstance(e, ours) for e in errors):
            return super().repr_failure(excinfo, style=style)
        parts = [f"liarsdice laws for {self.case.describe()} ({self.case.name}):"]
        for each in errors:
            shown = (
                str(each) if isinstance(each, LawViolation) else f"{type(each).__name__}: {each}"
            )
            parts += [shown, *getattr(each, "__notes__", [])]
        return "\n".join(parts)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice laws: {self.case.id} ({self.case.describe()})"
