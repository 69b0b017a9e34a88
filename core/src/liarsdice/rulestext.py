"""Rules pages, assembled from the plugins' rules text (``liarsdice_describe``).

The baseline describes the game topic by topic (:data:`TOPICS`). A variant that changes one of those
rules rewrites that topic, so the page never states a rule that the table does not play; anything
else a variant has to say goes in its own section.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from liarsdice.models import JSON

if TYPE_CHECKING:
    from liarsdice.ruleset import Ruleset

#: The baseline's topics, in page order, with their labels.
TOPICS = {
    "table": "The table",
    "bidding": "Bidding",
    "ones": "Ones",
    "challenge": "Challenge",
    "first-opener": "The first round",
    "next-opener": "Later rounds",
    "timeouts": "Timeouts",
    "winning": "Winning",
}


@attrs.frozen
class RulesText:
    """A plugin's part of the rules page.

    ``text`` is the plugin's own section (Markdown). ``topics`` rewrites the baseline's paragraphs
    by topic name (keys of :data:`TOPICS`); the first plugin to rewrite a topic, in hook calling
    order, wins.
    """

    text: str = ""
    topics: Mapping[str, str] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        unknown = set(self.topics) - set(TOPICS)
        if unknown:
            raise ValueError(f"unknown rules topics {sorted(unknown)}; known: {', '.join(TOPICS)}")


def _show(value: JSON) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _text_of(rules: Ruleset, name: str) -> RulesText:
    for impl in rules.pm.hook.liarsdice_describe.get_hookimpls():
        if impl.plugin_name == name:
            answer = impl.function(**{arg: rules.options for arg in impl.argnames})
            if answer is None:
                return RulesText()
            return answer if isinstance(answer, RulesText) else RulesText(text=str(answer))
    return RulesText()


def render(rules: Ruleset) -> str:
    """The rules page of ``rules`` in Markdown: the baseline by topic, then each variant."""
    texts = {variant.name: _text_of(rules, variant.name) for variant in rules.variants}
    titles = {variant.name: variant.info.title for variant in rules.variants}
    baseline, *variants = rules.variants
    # Variants answer in hook calling order (last registered first), like firstresult hooks.
    rewritten: dict[str, tuple[str, str]] = {}
    for impl in reversed(rules.pm.hook.liarsdice_describe.get_hookimpls()):
        if impl.plugin_name == baseline.name:
            continue
        for topic, paragraph in texts[impl.plugin_name].topics.items():
            rewritten.setdefault(topic, (paragraph, titles[impl.plugin_name]))

    paragraphs = []
    for topic, label in TOPICS.items():
        if topic in rewritten:
            paragraph, title = rewritten[topic]
            paragraphs.append(f"**{label}.** {paragraph.strip()} _({title})_")
        elif topic in texts[baseline.name].topics:
            paragraphs.append(f"**{label}.** {texts[baseline.name].topics[topic].strip()}")
    sections = [f"## {baseline.info.title}\n\n" + "\n\n".join(paragraphs)]
    for variant in [baseline, *variants]:
        own = texts[variant.name].text.strip()
        if variant is not baseline:
            changed = [
                TOPICS[t].lower()
                for t in TOPICS
                if rewritten.get(t, ("", ""))[1] == variant.info.title
            ]
            if changed:
                own = f"{own}\n\nRewrites the rules above on: {', '.join(changed)}.".strip()
            sections.append(f"## {variant.info.title}\n\n{own or variant.info.summary}")
        if variant.options:
            lines = "\n".join(
                f"- `{o.key}` = {_show(rules.options[o.key])} — {o.help}" for o in variant.options
            )
            sections.append(f"Options in force:\n\n{lines}")

    title = " + ".join(v.info.title for v in rules.variants)
    if rules.preset is not None:
        preset = rules.preset
        intro = f"Preset **{preset.name}** — {preset.title}, following {preset.source}. {preset.summary}"
        sections.insert(0, intro)
        title = preset.title
    return f"# Rules: {title}\n\n" + "\n\n".join(sections) + "\n"
