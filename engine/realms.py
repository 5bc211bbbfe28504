"""Realms: the paths, areas, centre features and fields of the edition's vocabulary, tracked
with union-find.

Every feature of a placed tile is a node. Connecting two features across an
edge unites their realms; each realm, at its root, keeps its tiles, symbols
(as the tile set gives them), the number of open edge-ends (a path or an area is
complete when it reaches 0), the figures on it, the sides already paid for it, and
for a field the nodes of the areas it borders (a tile set's ``cities``). Nothing
here scans the board.

Copying is copy-on-write: a copy shares the ``Realm`` objects, and whichever side
changes a realm first changes its own copy of it (``Realms.changing``), so copying a
mid-game state costs three list copies, not a copy of every realm. A realm's meeples (a
tuple) and symbols are replaced, never changed in place, so even a realm's own copy
shares them; a new realm without a symbol shares one empty mapping.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from types import MappingProxyType
from typing import TypeVar

import msgspec

from meeple.events.model import Colour, Spot

Meeple = tuple[Colour, str, int]
"""A meeple on the board: (colour, figure, node it stands on)."""

#: the symbols of every realm without any: shared, so read-only
NO_SYMBOLS: Mapping[str, int] = MappingProxyType({})

_first = itemgetter(0)
#: what names each node in ``Realms.unheld``
L = TypeVar("L")


class Realm(msgspec.Struct, gc=False):
    """The data of one realm, kept at its union-find root (``Realm.new`` makes one for a
    feature; it refers to nothing that refers back to it, so the garbage collector skips it)."""

    kind: str
    tiles: set[tuple[int, int]]
    #: symbol -> count; replaced, never changed in place
    symbols: Mapping[str, int]
    open: int
    anchor: int
    #: the ``Realms`` token allowed to change this object in place (copy-on-write)
    owner: object = None
    #: the meeples on the realm, in the order they came; replaced, never changed in place
    meeples: tuple[Meeple, ...] = ()
    #: sides already paid for this realm (completed, or at the end)
    paid: set[str] | None = None
    #: a field's bordering area nodes (a tile set's ``cities``)
    cities: set[int] | None = None

    @classmethod
    def new(cls, kind: str, xy: tuple[int, int], symbol: str | None, open_ends: int,
            anchor: int, owner: object = None) -> Realm:
        """The realm of one feature of the tile at ``xy``, alone."""
        return cls(kind, {xy}, {symbol: 1} if symbol else NO_SYMBOLS, open_ends, anchor, owner)

    def copy(self, owner: object = None) -> Realm:
        """An independent copy (the sets are new; meeples and symbols, never changed in place,
        are shared), owned by ``owner``."""
        paid, cities = self.paid, self.cities
        return Realm(self.kind, set(self.tiles), self.symbols, self.open, self.anchor, owner,
                     self.meeples, None if paid is None else set(paid),
                     None if cities is None else set(cities))

    def symbol_count(self) -> int:
        return sum(self.symbols.values())

    def sides(self, side_of: dict[str, str]) -> list[str]:
        """The sides holding meeples here, each once, in the order their meeples came."""
        seen: list[str] = []
        for colour, _, _ in self.meeples:
            side = side_of[colour]
            if side not in seen:
                seen.append(side)
        return seen


#: what ``Realms.data`` holds at a node that is no root: a realm of nothing, never changed
VACANT = Realm("", set(), NO_SYMBOLS, 0, -1)


class Realms:
    """Union-find over feature nodes, with a ``Realm`` at each root.

    Read a realm with ``realm(node)`` or ``data[root]``; change one only through
    ``changing(node)`` (or ``add_tile`` and ``connect``), which copies a realm still shared with
    another copy of these realms before it is changed.
    """

    __slots__ = ("parent", "data", "laid", "token")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.data: list[Realm] = []
        #: for each tile, in the order laid: its first node, its cell and the canonical target
        #: of each of its features, whose nodes follow the first (see ``spot``)
        self.laid: list[tuple[int, tuple[int, int], tuple[str, ...]]] = []
        #: marks the realms this object may change in place
        self.token = object()

    def copy(self) -> Realms:
        """An independent copy: a later change to either leaves the other as it was."""
        other = Realms.__new__(Realms)
        other.parent = list(self.parent)
        other.data = list(self.data)
        other.laid = list(self.laid)
        other.token = object()
        self.token = object()  # every realm is now shared: each side copies what it changes
        return other

    def changing(self, node: int) -> Realm:
        """The realm ``node`` belongs to, to change in place: this object's own copy of it."""
        root = self.find(node)
        realm = self.data[root]
        if realm.owner is not self.token:
            realm = self.data[root] = realm.copy(self.token)
        return realm

    def add_tile(self, features, xy: tuple[int, int], targets: tuple[str, ...],
                 joins: list[tuple[int, int]]) -> tuple[int, ...]:
        """A node per feature of a tile laid at ``xy`` (``meeple.engine.tiles.Feature``),
        joined across its edges: ``joins`` holds (feature index, neighbour's node) for each
        pair of features an edge joins, in the order the edges are crossed. Returns the
        nodes, in feature order.

        A feature's first join puts it straight into the neighbour's realm, as connecting a
        realm of its own would (its tile, open ends, symbol and bordered cities added; the
        neighbour's realm is the older, so its anchor stays); a feature that joins nothing is
        a realm of its own.
        """
        parent = self.parent
        data = self.data
        first = len(parent)
        count = len(features)
        nodes = tuple(range(first, first + count))
        parent.extend(nodes)
        data += [VACANT] * count
        self.laid.append((first, xy, targets))
        token = self.token
        for mine, their in joins:
            node = first + mine
            if parent[node] != node:  # joined before: two realms meet
                self.connect(node, their)
                continue
            root = their if parent[their] == their else self.find(their)
            realm = data[root]
            if realm.owner is not token:
                realm = data[root] = realm.copy(token)
            parent[node] = root
            feature = features[mine]
            realm.tiles.add(xy)
            realm.open += len(feature.sides) - 2
            if feature.symbol:
                symbols = dict(realm.symbols)
                symbols[feature.symbol] = symbols.get(feature.symbol, 0) + 1
                realm.symbols = symbols
            cities = feature.cities
            if cities:
                bordered = realm.cities  # (this copy's own set: changed in place)
                if bordered is None:
                    realm.cities = {first + c for c in cities}
                else:
                    for c in cities:
                        bordered.add(first + c)
        for feature in features:
            node = first + feature.index
            if parent[node] == node:
                symbol = feature.symbol
                realm = data[node] = Realm(feature.kind, {xy}, {symbol: 1} if symbol
                                           else NO_SYMBOLS, len(feature.sides), node, token)
                if feature.cities:
                    realm.cities = {first + c for c in feature.cities}
        return nodes

    def spot(self, node: int) -> Spot:
        """Where a node lies: its tile and feature, as events name it."""
        first, (x, y), targets = self.laid[bisect_right(self.laid, node, key=_first) - 1]
        return Spot(x=x, y=y, feature=targets[node - first])

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def root(self, node: int) -> int:
        """The root of ``node``'s realm; a root, or a node next to one (most nodes: ``find``
        compresses paths), is answered without a call of ``find``."""
        parent = self.parent
        root = parent[node]
        return root if parent[root] == root else self.find(root)

    def roots(self, nodes: Iterable[int]) -> list[int]:
        """The root of each node's realm, in order (``root`` of each, in one call)."""
        parent = self.parent
        roots = []
        for node in nodes:
            root = parent[node]
            if parent[root] != root:
                root = self.find(root)
            roots.append(root)
        return roots

    def held(self, nodes: Sequence[int], order: Iterable[int], last: int = -1) -> list[int]:
        """The roots of the realms of the nodes at ``order`` in ``nodes`` that hold a figure,
        each once, in that order, then the one at ``last`` if given (``root`` of each, in one
        loop)."""
        parent = self.parent
        data = self.data
        held: list[int] = []
        for index in order:
            root = parent[nodes[index]]
            if parent[root] != root:
                root = self.find(root)
            if data[root].meeples and root not in held:
                held.append(root)
        if last >= 0:
            root = parent[nodes[last]]
            if parent[root] != root:
                root = self.find(root)
            if data[root].meeples and root not in held:
                held.append(root)
        return held

    def unheld(self, nodes: Iterable[int], labels: Iterable[L]) -> list[L]:
        """The labels of the nodes whose realm holds no figure, in order (``labels`` names
        ``nodes`` one by one; ``root`` of each, in one loop)."""
        parent = self.parent
        data = self.data
        free: list[L] = []
        for node, label in zip(nodes, labels):  # noqa: B905 (``strict=`` costs its parsing)
            root = parent[node]
            if parent[root] != root:
                root = self.find(root)
            if not data[root].meeples:
                free.append(label)
        return free

    def realm(self, node: int) -> Realm:
        """The realm a node belongs to."""
        return self.data[self.find(node)]

    def connect(self, a: int, b: int) -> int:
        """Join the realms of ``a`` and ``b`` across one edge; two open ends close. Returns the root."""
        parent = self.parent
        ra = a if parent[a] == a else self.find(a)
        rb = b if parent[b] == b else self.find(b)
        if ra == rb:
            self.changing(ra).open -= 2
            return ra
        data = self.data
        big, small = data[ra], data[rb]
        if len(big.tiles) < len(small.tiles):
            ra, rb, big, small = rb, ra, small, big
        if big.owner is not self.token:
            big = data[ra] = big.copy(self.token)
        parent[rb] = ra
        data[rb] = VACANT
        big.tiles |= small.tiles
        if small.symbols:
            symbols = dict(big.symbols)
            for faction, count in small.symbols.items():
                symbols[faction] = symbols.get(faction, 0) + count
            big.symbols = symbols
        big.open += small.open - 2
        if small.meeples:
            big.meeples += small.meeples
        if small.anchor < big.anchor:
            big.anchor = small.anchor
        if small.paid:
            big.paid = (big.paid or set()) | small.paid
        if small.cities:
            if big.cities is None:
                big.cities = set(small.cities)
            else:
                big.cities |= small.cities
        return ra
