"""WebSocket compression where it pays: messages of `MIN_COMPRESSED` bytes or more.

Every update to every client would otherwise go through zlib (permessage-deflate, RFC 7692), and for the short
updates most messages are (a move, a version, the next legal actions: a few hundred bytes) that costs the server
more than anything else it does for a move, to save a few hundred bytes. RFC 7692 lets a sender send any message
uncompressed once the extension is agreed (its first frame without RSV1), so the big ones (full views, boards) are
still compressed, with the context kept from one to the next, and the small ones go as they are.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

#: Messages shorter than this (in bytes, as sent) are sent uncompressed.
MIN_COMPRESSED = 1024

#: The compression uvicorn offers (its websockets-sansio defaults): 4 KB windows and memLevel 5 keep a connection's
#: zlib state (compressor and decompressor) to about 50 KB.
WINDOW_BITS = 12
COMPRESS_SETTINGS = {"memLevel": 5}


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that compresses only messages of `MIN_COMPRESSED` bytes or more."""

    def encode(self, frame: Frame) -> Frame:
        if frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY) and len(frame.data) < MIN_COMPRESSED:
            return frame  # a whole message in one frame, without RSV1: uncompressed
        return super().encode(frame)


class LargeOnlyDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's side of the negotiation, as websockets does it, agreeing to `LargeOnlyDeflate`."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, LargeOnlyDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            self.compress_settings,
        )


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio WebSocket protocol, compressing only large messages (`LargeOnlyDeflate`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[
                    LargeOnlyDeflateFactory(
                        server_max_window_bits=WINDOW_BITS,
                        client_max_window_bits=WINDOW_BITS,
                        compress_settings=COMPRESS_SETTINGS,
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
