"""Write the JSON Schemas of docs/schemas/ that are generated from meeple's msgspec types.

    python docs/make_schemas.py docs/schemas

``log-line.json`` is one line of a game log (what ``meeple schema`` prints), ``tileset.json``
a tile set file (``--tileset FILE``), ``relay-receipt.json`` one line of a ``GAME.receipts``
file, and ``watch-games.json`` what ``meeple watch URL --json`` prints. The bot protocol's
``bot-*.json`` come from ``python -m meeple.cli.bot_messages docs/schemas``.
``tests/test_docs.py`` checks that the committed files are what this writes.
"""

import json
import os
import sys

import msgspec

from meeple.cli.relay.listing import Listed
from meeple.cli.relay.store import Receipt
from meeple.events.model import line_schema
from meeple.events.tileset import TileSetDef


class PublicGames(msgspec.Struct):
    """What ``meeple watch URL --json`` prints: the relay's public games (``GET /games``)."""

    games: list[Listed]


def _text(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schemas() -> dict[str, str]:
    """{file name: JSON Schema text} of each generated file."""
    return {
        "log-line.json": _text(line_schema()),
        "tileset.json": _text(msgspec.json.schema(TileSetDef)),
        "relay-receipt.json": _text(msgspec.json.schema(Receipt)),
        "watch-games.json": _text(msgspec.json.schema(PublicGames)),
    }


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "schemas")
    for name, text in schemas().items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write(text)
