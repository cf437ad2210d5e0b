"""WebSocket compression where it pays (`skald.web.deflate`): over real traffic, with permessage-deflate agreed,
the server compresses the large messages (a full view with its board) and sends the short updates as they are, and
every message, of either kind, arrives whole."""

from __future__ import annotations

import contextlib
import json
import random
import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect
from websockets.typing import ExtensionParameter

from skald.web.deflate import MIN_COMPRESSED, LargeOnlyDeflate
from web_support import Server, running


class Seen(PerMessageDeflate):
    """The client's permessage-deflate, noting whether each data message came compressed, and its length."""

    arrived: list[tuple[bool, int]]

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        decoded = super().decode(frame, max_size=max_size)
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            self.arrived.append((frame.rsv1, len(decoded.data)))
        return decoded


class SeenFactory(ClientPerMessageDeflateFactory):
    """Agrees to permessage-deflate as a browser does, and notes what arrives in `arrived`."""

    def __init__(self, arrived: list[tuple[bool, int]]) -> None:
        super().__init__(client_max_window_bits=True)
        self.arrived = arrived

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        agreed = super().process_response_params(params, accepted_extensions)
        seen = Seen(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
        )
        seen.arrived = self.arrived
        return seen


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(f"sqlite:///{tmp_path_factory.mktemp('web') / 'skald.db'}") as live:
        yield live


def test_only_messages_of_a_kilobyte_or_more_are_compressed_and_all_arrive_whole(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    arrived: dict[str, list[tuple[bool, int]]] = {"person": [], "bot": []}
    messages: dict[str, list[dict[str, Any]]] = {"person": [], "bot": []}
    # Ann's browser asks for the full view and the board; Bo's client (as a bot's) for the short updates.
    hellos = {"person": (0, True, True), "bot": (1, False, False)}
    with contextlib.ExitStack() as stack:
        sockets = {}
        for who, (seat, svg, full) in hellos.items():
            sockets[who] = stack.enter_context(
                connect(
                    f"{server.ws}/ws/{game['id']}",
                    compression=None,
                    extensions=[SeenFactory(arrived[who])],
                    open_timeout=30,
                )
            )
            token = game["invites"][seat]["token"]
            sockets[who].send(json.dumps({"type": "hello", "token": token, "svg": svg, "full": full}))

        def until_update(who: str, past: int) -> dict[str, Any]:
            """The first update after version `past` in which a seat is to move: the game's opening chance is drawn
            by the table's own task, so a hello answered before it sees no one to move (and no legal actions)."""
            while True:
                message = json.loads(sockets[who].recv(timeout=60))
                messages[who].append(message)
                if message["type"] == "update" and message["version"] > past and message["to_move"] is not None:
                    return message

        view = until_update("person", -1)
        until_update("bot", -1)
        for _ in range(6):  # three moves each: short updates for Bo, full ones with board patches for Ann
            mover = "person" if view["to_move"] == 0 else "bot"
            mine = view if mover == "person" else messages["bot"][-1]
            move = {"type": "move", "version": mine["version"], "action": mine["legal"][0]["action"]}
            sockets[mover].send(json.dumps(move))
            view = until_update("person", view["version"])
            until_update("bot", view["version"] - 1)

    for who in arrived:
        assert len(arrived[who]) == len(messages[who])  # every data message went through the agreed extension
    seen = arrived["person"] + arrived["bot"]
    assert all(compressed == (size >= MIN_COMPRESSED) for compressed, size in seen)
    assert sum(compressed for compressed, _ in arrived["person"]) >= 4  # full views with their boards
    assert sum(not compressed for compressed, _ in arrived["bot"]) >= 4  # short updates
    assert messages["person"][-1]["board"] and messages["bot"][-1]["log"]


def test_a_mix_of_plain_and_compressed_messages_decodes_as_sent_with_the_context_kept() -> None:
    sender = LargeOnlyDeflate(False, False, 12, 12, {"memLevel": 5})
    receiver = PerMessageDeflate(False, False, 12, 12)
    large = json.dumps({"board": random.Random(1).randbytes(1200).hex()}).encode()  # alone, it halves at best
    texts = [b'{"type":"update","version":1}', large, b"x" * (MIN_COMPRESSED - 1), large, b"y" * MIN_COMPRESSED]
    for text in texts:
        sent = sender.encode(Frame(Opcode.TEXT, text))
        assert sent.rsv1 == (len(text) >= MIN_COMPRESSED)
        assert receiver.decode(sent).data == text
    # The second copy of the large message is compressed against the first, kept in the context across the plain
    # message between them.
    fresh = zlib.compressobj(wbits=-12, memLevel=5)
    assert len(sender.encode(Frame(Opcode.TEXT, large)).data) < len(fresh.compress(large) + fresh.flush()) // 4
