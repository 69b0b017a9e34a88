"""Rules text: a plugin's part of the rules page, and the baseline's topics and clauses.

The baseline (``standard``) describes the game topic by topic (:data:`TOPICS`), each topic a
paragraph of named clauses (``"wilds.bids"``). A variant that changes one of those rules replaces
that clause, or adds one to a topic, without copying the paragraph; anything else it has to say
goes in its own section. A variant's section may itself end in named clauses (``calza`` names
``"calza.window"``), so that another variant that changes that rule replaces the clause, and the
page never states both. The page is assembled by :mod:`liarsdice.rulespage`.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from liarsdice.i18n import Text, _

#: The baseline's topics, in page order, with their labels (the label of ``wilds`` follows the
#: faces that are wild: "Wild ones", "Wild sixes", "No wild dice").
TOPICS = {
    "table": _("The table"),
    "bidding": _("Bidding"),
    "wilds": _("Wild dice"),
    "challenge": _("The challenge"),
    "first-opener": _("The first round"),
    "next-opener": _("Later rounds"),
    "timeouts": _("Timeouts"),
    "winning": _("Winning"),
}


def _clauses(value: Mapping[str, str | Text]) -> dict[str, str | Text]:
    clauses = dict(value)
    for key in clauses:
        topic, dot, name = key.partition(".")
        if not topic or not dot or not name:
            raise ValueError(
                f"a rules clause is named topic.clause, with a topic of {', '.join(TOPICS)} or a "
                f"variant's name (its own section, or one it amends); not {key!r}"
            )
    return clauses


@attrs.frozen
class RulesText:
    """A plugin's part of the rules page.

    ``text`` is the plugin's own section (Markdown). ``clauses`` maps ``"topic.clause"`` to one
    or more sentences. The topic is one of the baseline's :data:`TOPICS`, or a variant's name:

    - the baseline defines the clauses of each topic, in order; a variant's clause of the same
      name replaces the baseline's (``""`` removes it), and a new name is added at the end of its
      topic;
    - a variant's clauses under its own name end its section, after ``text``, in order; another
      variant replaces one of them by naming it (``"calza.window"``), read only while that variant
      is at the table. Adding to another variant's section is refused by the kit's law: say it in
      your own.

    When two variants change one clause, the one asked first (declared precedence) wins. Text and
    clauses may be plain strings or :class:`~liarsdice.i18n.Text` from the plugin's catalog, read
    in the player's language.
    """

    text: str | Text = ""
    clauses: Mapping[str, str | Text] = attrs.field(factory=dict, converter=_clauses)
