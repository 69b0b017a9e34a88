"""What a table answers when it cannot grant a request: its errors and its socket close codes.

Contract: :class:`TableError` (and :class:`Forbidden`) carry a ``text`` any reader's language can
render; they are raised by a table's parts and sent back as an ``error`` message. The close codes
are the ones a table closes its sockets with.
"""

from __future__ import annotations

from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()


class TableError(ValueError):
    """A request about a table cannot be granted; ``text`` says why, in any language."""

    def __init__(self, text: str | Text) -> None:
        self.text = text
        super().__init__(str(text))


class Forbidden(TableError):
    """The caller may not do that at this table (no share-link key, or removed by the host)."""


PRIVATE = _("this table is private: ask its host for the share link")
BANNED = _("the host removed you from this table: you cannot sit at it again")
REMOVED = _("the host removed you from this table")
"""What the tabs of a removed seat are told (``kicked``), and their close reason."""
KICKED = 4403
"""WebSocket close code sent to the connections of a seat the host removed (on any process:
see :meth:`.Seating.load`)."""
GONE = 4404
"""WebSocket close code: no live table has this code (any more); clients stop reconnecting."""
CLOSED = "this table has closed: start a new one from the lobby"
"""The reason sent with :data:`GONE` when a table closes (clients show their own words for it)."""
REPLACED = 4409
"""WebSocket close code sent to a seat's oldest tab when a newer one takes its place."""
