"""The rules page of a ruleset, assembled from the plugins' rules text (``liarsdice_describe``).

The page opens (for a preset) with the preset's name, title and summary; then the baseline's
topics, one paragraph each, built from the baseline's clauses with the variants' changes applied
(:class:`~liarsdice.rulestext.RulesText`); then each variant's own section; then the options in
force, as "label: value" lines that state the value the table plays. The label of the wild-dice
topic follows :meth:`~liarsdice.ruleset.Ruleset.wild_faces`. The page reads in the locale asked
for; each message a catalog lacks reads in English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import pluggy

from liarsdice import phrases
from liarsdice.contracts import call_one
from liarsdice.discovery import InstalledVariant
from liarsdice.i18n import Param, Text, _, render
from liarsdice.models import JSON, GameState
from liarsdice.options import Option
from liarsdice.presets import Preset
from liarsdice.rulestext import TOPICS, RulesText


class Rules(Protocol):
    """What a rules page reads of a combination: a :class:`~liarsdice.ruleset.Ruleset` is one.

    ``Ruleset.describe`` calls :func:`page`, so the page names the parts it reads instead of
    importing the class: the ruleset depends on the page, never the other way round.
    """

    @property
    def pm(self) -> pluggy.PluginManager: ...
    @property
    def options(self) -> Mapping[str, JSON]: ...
    @property
    def variants(self) -> Sequence[InstalledVariant]: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def order(self) -> Sequence[str]: ...
    @property
    def preset(self) -> Preset | None: ...
    def wild_faces(self, state: GameState | None = None) -> frozenset[int]: ...


def preset_intro(preset: Preset) -> Text:
    """The line that opens a preset's page, with the table it is for when it says ("Table: 2 to
    6 players, 5 dice each."). The preset's ``source`` (the rule sets it follows, such as "seed
    000") is for the project, not for players: it is not shown."""
    intro = _(
        "Preset **{name}** — {title}. {summary}",
        name=preset.name,
        title=preset.title,
        summary=preset.summary,
    )
    table = preset.size.line()
    return intro if table is None else _("{intro} {table}", intro=intro, table=table)


def text_of(rules: Rules, name: str) -> RulesText:
    """What plugin ``name`` says about ``rules`` (an empty text if it says nothing)."""
    answer = call_one(name, rules.pm, "liarsdice_describe", options=rules.options, rules=rules)
    if answer is None:
        return RulesText()
    return answer if isinstance(answer, RulesText) else RulesText(text=answer)


def wilds_label(faces: frozenset[int]) -> Param:
    """The label of the wild-dice topic: "Wild ones", "Wild sixes", "No wild dice"..."""
    if not faces:
        return _("No wild dice")
    return _("Wild {faces}", faces=phrases.listing([phrases.faces(f) for f in sorted(faces)]))


def _value(option: Option, value: JSON) -> Param:
    return phrases.yes_no(value) if isinstance(value, bool) else option.value_label(value)


def option_label(option: Option, locale: str = "en") -> str:
    """An option's label for players: its help, capitalised, in ``locale``."""
    label = render(option.help, locale)
    return label[:1].upper() + label[1:]


def option_line(option: Option, value: JSON, locale: str = "en") -> str:
    """One line of the options in force: the option's label, and the value played."""
    return f"- {option_label(option, locale)}: **{render(_value(option, value), locale)}**"


def _changes(rules: Rules, texts: dict[str, RulesText]) -> dict[str, str | Text]:
    """Each clause a variant at the table changes, with the text of the one asked first."""
    baseline = rules.names[0]
    changes: dict[str, str | Text] = {}
    for name in rules.order:  # the variant asked first wins a clause
        if name == baseline:
            continue
        for key, clause in texts[name].clauses.items():
            if key.partition(".")[0] != name:  # a variant's own clauses are not changes
                changes.setdefault(key, clause)
    return changes


def _paragraph(
    keys: list[str], own: Mapping[str, str | Text], changes: Mapping[str, str | Text], locale: str
) -> str:
    """The sentences of ``keys``, each as changed by a variant or else as its owner wrote it."""
    sentences = [render(changes.get(key, own.get(key, "")), locale).strip() for key in keys]
    return " ".join(sentence for sentence in sentences if sentence)


def _topics(
    rules: Rules, texts: dict[str, RulesText], changes: Mapping[str, str | Text], locale: str
) -> list[str]:
    own = texts[rules.names[0]].clauses
    added = [key for key in changes if key not in own]
    labels: dict[str, Param] = {**TOPICS, "wilds": wilds_label(rules.wild_faces())}
    paragraphs = []
    for topic, label in labels.items():
        keys = [key for key in [*own, *added] if key.partition(".")[0] == topic]
        body = _paragraph(keys, own, changes, locale)
        if body:
            paragraphs.append(f"**{render(label, locale)}.** {body}")
    return paragraphs


def _section(
    variant: InstalledVariant, text: RulesText, changes: Mapping[str, str | Text], locale: str
) -> str:
    """A variant's section: its text (or its summary), then its own clauses as changed by others."""
    own = {
        key: clause for key, clause in text.clauses.items() if key.startswith(f"{variant.name}.")
    }
    body = render(text.text, locale).strip()
    clauses = _paragraph(list(own), own, changes, locale)
    body = " ".join(part for part in (body, clauses) if part)
    body = body or render(variant.info.summary, locale)
    return f"## {render(variant.info.title, locale)}\n\n{body}"


def page(rules: Rules, locale: str = "en") -> str:
    """The rules page of ``rules`` in Markdown, in ``locale``: the baseline by topic, then each
    variant, then the options in force."""
    texts = {variant.name: text_of(rules, variant.name) for variant in rules.variants}
    changes = _changes(rules, texts)
    baseline, *variants = rules.variants
    heading = render(baseline.info.title, locale)
    sections = [f"## {heading}\n\n" + "\n\n".join(_topics(rules, texts, changes, locale))]
    sections += [_section(variant, texts[variant.name], changes, locale) for variant in variants]
    lines = [
        option_line(option, rules.options[option.key], locale)
        for variant in rules.variants
        for option in variant.options
    ]
    if lines:
        heading = render(_("Options in force"), locale)
        sections.append(f"## {heading}\n\n" + "\n".join(lines))
    title = " + ".join(render(variant.info.title, locale) for variant in rules.variants)
    if rules.preset is not None:
        preset = rules.preset
        sections.insert(0, preset_intro(preset).render(locale))
        title = render(preset.title, locale)
    top = _("Rules: {title}", title=title)
    return f"# {render(top, locale)}\n\n" + "\n\n".join(sections) + "\n"
