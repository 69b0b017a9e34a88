"""The rules page of a ruleset, assembled from the plugins' rules text (``liarsdice_describe``).

The page opens (for a preset) with the preset's name, title and summary; then the baseline's
topics, one paragraph each, built from the baseline's clauses with the variants' changes applied
(:class:`~liarsdice.rulestext.RulesText`); then each variant's own section; then the options in
force, as "label: value" lines that state the value the table plays. The label of the wild-dice
topic follows :meth:`Ruleset.wild_faces`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from liarsdice.contracts import call_one
from liarsdice.models import FACE_NAMES, JSON
from liarsdice.rulestext import TOPICS, RulesText

if TYPE_CHECKING:
    from liarsdice.options import Option
    from liarsdice.ruleset import Ruleset


#: The line that opens a preset's page. The preset's ``source`` (the rule sets it follows, such as
#: "seed 000") is for the project, not for players: it is not shown.
PRESET_INTRO = "Preset **{name}** — {title}. {summary}"


def text_of(rules: Ruleset, name: str) -> RulesText:
    """What plugin ``name`` says about ``rules`` (an empty text if it says nothing)."""
    answer = call_one(name, rules.pm, "liarsdice_describe", options=rules.options)
    if answer is None:
        return RulesText()
    return answer if isinstance(answer, RulesText) else RulesText(text=str(answer))


def wilds_label(faces: frozenset[int]) -> str:
    """The label of the wild-dice topic: "Wild ones", "Wild sixes", "No wild dice"..."""
    if not faces:
        return "No wild dice"
    names = [FACE_NAMES[face] for face in sorted(faces)]
    return "Wild " + " and ".join(names)


def _value(value: JSON) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def option_line(option: Option, value: JSON) -> str:
    """One line of the options in force: the option's help as a label, and the value played."""
    label = option.help[:1].upper() + option.help[1:]
    return f"- {label}: **{_value(value)}** (`{option.key}`)"


def _topics(rules: Ruleset, texts: dict[str, RulesText]) -> list[str]:
    baseline = rules.names[0]
    changes: dict[str, str] = {}
    added: list[str] = []
    for name in rules.order:  # the variant asked first wins a clause
        for key, clause in texts[name].clauses.items():
            if key in changes:
                continue
            changes[key] = clause
            if key not in texts[baseline].clauses:
                added.append(key)
    labels = {**TOPICS, "wilds": wilds_label(rules.wild_faces())}
    paragraphs = []
    for topic, label in labels.items():
        keys = [key for key in texts[baseline].clauses if key.partition(".")[0] == topic]
        keys += [key for key in added if key.partition(".")[0] == topic]
        sentences = [changes.get(key, texts[baseline].clauses.get(key, "")).strip() for key in keys]
        body = " ".join(sentence for sentence in sentences if sentence)
        if body:
            paragraphs.append(f"**{label}.** {body}")
    return paragraphs


def render(rules: Ruleset) -> str:
    """The rules page of ``rules`` in Markdown: the baseline by topic, then each variant."""
    texts = {variant.name: text_of(rules, variant.name) for variant in rules.variants}
    baseline, *variants = rules.variants
    sections = [f"## {baseline.info.title}\n\n" + "\n\n".join(_topics(rules, texts))]
    for variant in variants:
        own = texts[variant.name].text.strip() or variant.info.summary
        sections.append(f"## {variant.info.title}\n\n{own}")
    lines = [
        option_line(option, rules.options[option.key])
        for variant in rules.variants
        for option in variant.options
    ]
    if lines:
        sections.append("## Options in force\n\n" + "\n".join(lines))
    title = " + ".join(v.info.title for v in rules.variants)
    if rules.preset is not None:
        preset = rules.preset
        intro = PRESET_INTRO.format(name=preset.name, title=preset.title, summary=preset.summary)
        sections.insert(0, intro)
        title = preset.title
    return f"# Rules: {title}\n\n" + "\n\n".join(sections) + "\n"
