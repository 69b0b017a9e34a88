"""permessage-deflate with a bounded inflater: a compressed message costs at most the message cap.

Contract: :class:`BoundedDeflate` is wsproto's :class:`~wsproto.extensions.PerMessageDeflate`
(the same negotiation, the same compression of what the server sends) except that inbound data is
inflated in a stream with a maximum output: a message is inflated to at most ``max_message``
bytes, and at one byte more the inflating stops and the connection fails with close code 1009
(:data:`TOO_BIG`), whatever the rest of the message would have inflated to. wsproto inflated
each chunk read from the socket whole, so a 16 KB frame of deflated zeros cost 16 MiB (and its
copies) before the size check could see it. Each inflated chunk is reported to ``spend`` (the
client's budget of inflated bytes, :meth:`liarsdice_demo.edge.gate.SocketGate.inflated`).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import CloseReason, FrameDecoder, FrameProtocol, ParseFailed

TOO_BIG = CloseReason.MESSAGE_TOO_BIG
SYNC_TAIL = b"\x00\x00\xff\xff"
"""What the sender dropped from the end of each compressed message (RFC 7692 section 7.2.1)."""


def _nothing(size: int) -> None:
    """The default ``spend``: inflated bytes are not budgeted."""


class BoundedDeflate(PerMessageDeflate):
    """permessage-deflate whose inflater stops at ``max_message`` bytes per message (then the
    connection fails with 1009) and reports every inflated chunk's size to ``spend``."""

    def __init__(self, max_message: int, spend: Callable[[int], None] = _nothing) -> None:
        super().__init__()
        self.max_message = max_message
        self._spend = spend
        self._inflated = 0
        """Bytes the current message inflated to so far."""

    def frame_inbound_payload_data(
        self, proto: FrameDecoder | FrameProtocol, data: bytes
    ) -> bytes | CloseReason:
        if not self._inbound_compressed or not self._inbound_is_compressible:
            return data
        return self._inflate(data)

    def frame_inbound_complete(
        self, proto: FrameDecoder | FrameProtocol, fin: bool
    ) -> bytes | CloseReason | None:
        if not (fin and self._inbound_compressed and self._inbound_is_compressible):
            return super().frame_inbound_complete(proto, fin)  # nothing to inflate
        tail = self._inflate(SYNC_TAIL)  # the base class would flush with no bound
        self._inflated = 0
        self._inbound_compressed = None
        takeover_off = (
            self.server_no_context_takeover if proto.client else self.client_no_context_takeover
        )
        if takeover_off:
            self._decompressor = None
        return tail

    def _inflate(self, data: bytes) -> bytes:
        """Inflate ``data`` into the current message, at most one byte past the cap."""
        assert self._decompressor is not None  # made by frame_inbound_header
        room = self.max_message - self._inflated
        try:
            out = self._decompressor.decompress(data, room + 1)
        except zlib.error:
            raise ParseFailed(
                "the compressed data is invalid", CloseReason.INVALID_FRAME_PAYLOAD_DATA
            ) from None
        if len(out) > room:  # the rest stays compressed, in the decompressor's unconsumed tail
            self._decompressor = None
            raise ParseFailed(f"message too big: over {self.max_message} bytes inflated", TOO_BIG)
        self._inflated += len(out)
        if out:
            self._spend(len(out))
        return out
