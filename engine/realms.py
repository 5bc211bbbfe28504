"""Realms: routes, asteroid fields and planets; roads, cities, cloisters and fields
(farms); tracked with union-find (SW-1.3, SW-6.2, CL-4 to CL-6).

Every feature of a placed tile is a node. Connecting two features across an
edge unites their realms; each realm, at its root, keeps its tiles, symbols
(faction symbols, or pennants), the number of open edge-ends (a route, road,
asteroid field or city is complete when it reaches 0, SW-6.2, CL-5), the
meeples on it, the sides already paid for it, and for a farm the city nodes it
borders (CL-6). Nothing here scans the board.
"""

from __future__ import annotations

from meeple.events.model import Colour, Spot

Meeple = tuple[Colour, str, int]
"""A meeple on the board: (colour, figure, node it stands on)."""


class Realm:
    """The data of one realm, kept at its union-find root."""

    __slots__ = ("kind", "tiles", "symbols", "open", "meeples", "anchor", "paid", "cities")

    def __init__(self, kind: str, xy: tuple[int, int], symbol: str | None, open_ends: int,
                 anchor: int) -> None:
        self.kind = kind
        self.tiles = {xy}
        self.symbols: dict[str, int] = {symbol: 1} if symbol else {}
        self.open = open_ends
        self.meeples: list[Meeple] = []
        self.anchor = anchor
        #: sides already paid for this realm (completed, or at the end)
        self.paid: set[str] | None = None
        #: a farm's bordering city nodes (CL-6)
        self.cities: set[int] | None = None

    def copy(self) -> Realm:
        """An independent copy (the sets, lists and dicts are new)."""
        other = Realm.__new__(Realm)
        other.kind = self.kind
        other.tiles = set(self.tiles)
        other.symbols = dict(self.symbols)
        other.open = self.open
        other.meeples = list(self.meeples)
        other.anchor = self.anchor
        other.paid = set(self.paid) if self.paid is not None else None
        other.cities = set(self.cities) if self.cities is not None else None
        return other

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


class Realms:
    """Union-find over feature nodes, with a ``Realm`` at each root."""

    __slots__ = ("parent", "data", "spots")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.data: list[Realm | None] = []
        self.spots: list[Spot] = []

    def copy(self) -> Realms:
        """An independent copy: a later change to either leaves the other as it was."""
        other = Realms()
        other.parent = list(self.parent)
        other.data = [realm.copy() if realm is not None else None for realm in self.data]
        other.spots = list(self.spots)
        return other

    def add(self, kind: str, xy: tuple[int, int], symbol: str | None, open_ends: int,
            spot: Spot) -> int:
        """A new node in a realm of its own; returns the node id."""
        node = len(self.parent)
        self.parent.append(node)
        self.data.append(Realm(kind, xy, symbol, open_ends, node))
        self.spots.append(spot)
        return node

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def realm(self, node: int) -> Realm:
        """The realm a node belongs to."""
        return self.data[self.find(node)]  # type: ignore[return-value]

    def connect(self, a: int, b: int) -> int:
        """Join the realms of ``a`` and ``b`` across one edge; two open ends close. Returns the root."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            realm = self.data[ra]
            assert realm is not None
            realm.open -= 2
            return ra
        big, small = self.data[ra], self.data[rb]
        assert big is not None and small is not None
        if len(big.tiles) < len(small.tiles):
            ra, rb, big, small = rb, ra, small, big
        self.parent[rb] = ra
        self.data[rb] = None
        big.tiles |= small.tiles
        for faction, count in small.symbols.items():
            big.symbols[faction] = big.symbols.get(faction, 0) + count
        big.open += small.open - 2
        big.meeples.extend(small.meeples)
        big.anchor = min(big.anchor, small.anchor)
        if small.paid:
            big.paid = (big.paid or set()) | small.paid
        if small.cities:
            big.cities = (big.cities or set()) | small.cities
        return ra
