"""A variant's rules text and behaviour at each value of its options, as a golden file.

:func:`snapshot` writes, for the variant's smallest ruleset at its defaults and then at each
value of each of its options, the text the variant itself contributes to the rules page (its
section and its clauses, in every language; "the text at the defaults" where it is the same) and a
fingerprint of how it plays (seeded games: rounds, moves and a digest of their events). The law
case ``rules-text`` of the pytest plugin compares it with the golden file kept beside the tests
(``rules_text/<variant>.md``), which the author accepts with ``pytest --accept-rules-text``. So
a change of behaviour without a change of text, or of text without behaviour, shows in review as
a diff of that file.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterator
from pathlib import Path

from liarsdice.i18n import LOCALES, render
from liarsdice.models import JSON
from liarsdice.ruleset import Ruleset, installed
from liarsdice.rulespage import text_of
from liarsdice.serialization import dumps
from liarsdice.testing.driver import RandomChooser, play_game, seat_names, table_near
from liarsdice.testing.laws import LawViolation
from liarsdice.testing.suite import option_domain, option_rows, smallest_ruleset

GAMES = 12
"""Seeded games behind each fingerprint."""

SNAPSHOT_TEXT = "the rules text and behaviour at each option value match the accepted snapshot"
ACCEPT = "pytest --accept-rules-text"


def _rulesets(variant: str) -> Iterator[tuple[str, Ruleset]]:
    """The variant's smallest ruleset at its defaults, then at each value of each option of the
    variant (the others at their defaults, or at an option row that builds with that value)."""
    base = smallest_ruleset(variant)
    yield "defaults", base
    names = base.names[1:]
    for option in installed()[variant].options:
        for value in option_domain(option):
            if value == base.options[option.key]:
                continue
            rules = _with(names, dict(base.options), option.key, value)
            label = f"{option.key} = {value!r}"
            yield label, rules if rules is not None else base


def _with(
    names: tuple[str, ...], options: dict[str, JSON], key: str, value: JSON
) -> Ruleset | None:
    for row in [options, *option_rows(names)[0]]:
        try:
            return Ruleset.build(names, {**row, key: value})
        except Exception:
            continue
    return None


def _text(rules: Ruleset, variant: str) -> list[str]:
    """The variant's own part of the page, line by line, in each language."""
    text = text_of(rules, variant)
    lines = []
    for locale in LOCALES:
        own = render(text.text, locale).strip()
        if own:
            lines += [f"{locale}: {line}" for line in own.splitlines()]
        for clause, sentence in sorted(text.clauses.items()):
            lines.append(f"{locale} [{clause}]: {render(sentence, locale).strip()}".rstrip())
    return lines or ["(no text of its own)"]


def _behaviour(rules: Ruleset) -> str:
    """Seeded games of ``rules``: rounds, moves, and a digest of every event."""
    players, dice = table_near(rules, 3, 2)
    rounds = moves = 0
    digest = hashlib.sha256()
    for seed in range(GAMES):
        game = play_game(rules, seat_names(players), dice, seed, RandomChooser(seed))
        moves += game.moves
        rounds += game.final.round.number if game.final and game.final.round else 0
        events = [event for step in game.steps if step.accepted for event in step.events]
        digest.update(dumps(events).encode())
    return (
        f"behaviour: {GAMES} seeded games at {players} players x {dice} dice: {rounds} rounds, "
        f"{moves} moves, events {digest.hexdigest()[:16]}"
    )


def snapshot(variant: str) -> str:
    """The golden text of ``variant``."""
    parts = [
        f"# Rules text and behaviour of {variant}",
        "",
        f"Accept a change with `{ACCEPT}` (the law case rules-text compares this file).",
    ]
    first: list[str] | None = None
    for label, rules in _rulesets(variant):
        text = _text(rules, variant)
        shown = text if first is None or text != first else ["(the text at the defaults)"]
        first = text if first is None else first
        parts += ["", f"## {label}", "", f"ruleset: {rules!r}", *shown, _behaviour(rules)]
    return "\n".join(parts) + "\n"


def path_for(folder: Path, variant: str) -> Path:
    """Where the golden file of ``variant`` lives beside tests in ``folder``."""
    return folder / "rules_text" / f"{variant}.md"


def check(variant: str, path: Path, *, accept: bool = False) -> str:
    """Law: ``variant``'s snapshot equals the golden file at ``path``; with ``accept``, write it
    instead. Returns what happened, in words (``""`` when there is no golden file yet and nothing
    was written); raises :class:`~liarsdice.testing.laws.LawViolation` with a diff."""
    now = snapshot(variant)
    if accept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(now, encoding="utf-8")
        return f"wrote {path}"
    if not path.is_file():
        return ""
    kept = path.read_text(encoding="utf-8")
    if kept == now:
        return f"matches {path}"
    diff = "\n".join(
        difflib.unified_diff(
            kept.splitlines(), now.splitlines(), str(path), "now", lineterm="", n=1
        )
    )
    raise LawViolation(
        SNAPSHOT_TEXT,
        None,
        f"{variant}'s rules text or behaviour changed; if that is meant, accept it with "
        f"`{ACCEPT}` and commit {path}:\n{diff}",
    )
