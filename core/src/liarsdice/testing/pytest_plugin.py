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
- ``with[other]``: with each installed variant that ``Ruleset.build`` accepts beside it;
- ``any-combination``: within any valid combination of the installed variants.

Each item draws whole games with Hypothesis, option values drawn from their declarations, and
checks every rule law; a failure shows the :class:`~liarsdice.testing.laws.LawViolation` (the
law, the ruleset, a small example) and Hypothesis's shrunk game. The Hypothesis profile comes
from ``$HYPOTHESIS_PROFILE`` (``fast`` by default, ``thorough`` for long runs). The marker takes
several names, ``combine=False`` (only ``alone``), and ``plugin=module`` to check a plugin that has
no entry point yet (installed for the test with :func:`liarsdice.testing.plugins.extra_variants`).

The laws need Hypothesis: ``pip install 'liarsdice[testing]'``. This module imports neither
Hypothesis nor the engine until a module asks for the laws.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from liarsdice.testing.suite import LawCase

MARKER = "liarsdice_variant"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*names, combine=True, plugin=None): run the liarsdice rule laws against these "
        "variants, alone and combined with every compatible installed variant",
    )


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


def pytest_pycollect_makeitem(
    collector: pytest.Module | pytest.Class, name: str, obj: Any
) -> list[LawSuite] | None:
    """A module (or class) that sets ``pytestmark`` with our marker, or ``liarsdice_variant``,
    gets a :class:`LawSuite` per variant named."""
    if name not in ("pytestmark", MARKER):
        return None
    suites = []
    for names, options in _requests(name, obj):
        if not names or not all(isinstance(n, str) for n in names):
            raise collector.CollectError(
                f"{MARKER} needs variant names, as in {MARKER}('my-variant'); got {names!r}"
            )
        unknown = set(options) - {"combine", "plugin"}
        if unknown:
            raise collector.CollectError(f"{MARKER}: unknown arguments {sorted(unknown)}")
        if options.get("plugin") is not None and len(names) != 1:
            raise collector.CollectError(f"{MARKER}(plugin=...) takes exactly one variant name")
        for variant in names:
            suites.append(
                LawSuite.from_parent(
                    collector,
                    name=f"liarsdice_laws[{variant}]",
                    variant=variant,
                    combine=bool(options.get("combine", True)),
                    plugin=options.get("plugin"),
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
                self, name=f"liarsdice_laws[{variant}]", variant=variant, combine=True, plugin=None
            )
            for variant in self.variants
        ]


@contextlib.contextmanager
def _installed(variant: str, plugin: Any) -> Iterator[None]:
    """With ``plugin``, install it as ``variant`` for the duration; otherwise nothing."""
    if plugin is None:
        yield
        return
    from liarsdice.testing.plugins import extra_variants

    with extra_variants({variant: plugin}):
        yield


class LawSuite(pytest.Collector):
    """The law checks for one variant: one :class:`LawItem` per case."""

    def __init__(self, *, variant: str, combine: bool, plugin: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variant = variant
        self.combine = combine
        self.plugin = plugin

    def collect(self) -> Sequence[LawItem]:
        from liarsdice.errors import PluginError, RulesetError
        from liarsdice.testing.suite import law_cases

        with _installed(self.variant, self.plugin):
            try:
                cases = law_cases(self.variant, combine=self.combine)
            except (RulesetError, PluginError) as error:
                raise self.CollectError(f"liarsdice laws for {self.variant}: {error}") from error
        return [LawItem.from_parent(self, name=case.name, case=case) for case in cases]

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice rule laws for {self.variant}"


class LawItem(pytest.Item):
    """Run every rule law on games drawn for one :class:`~liarsdice.testing.suite.LawCase`."""

    def __init__(self, *, case: LawCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.examples = 0

    def runtest(self) -> None:
        from liarsdice.testing.suite import run_case

        parent = self.parent
        assert isinstance(parent, LawSuite)
        with _installed(parent.variant, parent.plugin):
            run = run_case(self.case)
        self.examples = run.examples
        self.user_properties.append(("examples", run.examples))

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        from liarsdice.testing.laws import LawViolation
        from liarsdice.testing.suite import MissingHypothesis

        error = excinfo.value
        errors = list(error.exceptions) if isinstance(error, BaseExceptionGroup) else [error]
        if not any(isinstance(e, LawViolation | MissingHypothesis) for e in errors):
            return super().repr_failure(excinfo, style=style)
        parts = [f"liarsdice laws for {self.case.describe()}:"]
        for each in errors:
            shown = (
                str(each) if isinstance(each, LawViolation) else f"{type(each).__name__}: {each}"
            )
            parts += [shown, *getattr(each, "__notes__", [])]
        return "\n".join(parts)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice laws: {self.case.id} ({self.case.describe()})"
