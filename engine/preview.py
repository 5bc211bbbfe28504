"""What a placement would score at once, computed without laying the tile (for the greedy bot).

It joins the new tile's features with the neighbouring realms in a small local
union-find and applies the edition's completion and scoring to the merged result. Realms that
would need a battle count for nothing: their outcome is chance. Farms never
complete, so they gain nothing at once.
"""

from __future__ import annotations

from collections import Counter

from meeple.engine.applying import node_at
from meeple.engine.board import centres_around, neighbours_placed
from meeple.engine.deciding import resolve_target
from meeple.engine.geometry import STEP, facing_port
from meeple.engine.realms import Realm
from meeple.engine.scoring import complete, completed_points
from meeple.engine.state import GameState
from meeple.engine.tiles import TileType


def _groups(state: GameState, tile: TileType, x: int, y: int, r: int) -> list[dict]:
    o = tile.orientations[r]
    board, realms = state.board, state.realms
    parent: dict = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    links = []
    for f in tile.features:
        if f.index == tile.centre or f.kind == state.tileset.vocabulary.field:
            continue
        find(("f", f.index))
        for side in o.feature_sides[f.index]:
            dx, dy = STEP[side]
            other = board.get((x + dx, y + dy))
            if other is None:
                continue
            their = other.tile.orientations[other.r].ports[facing_port(side * 3 + 1)]
            root = realms.find(other.nodes[their])
            parent[find(("f", f.index))] = find(("r", root))
            links.append(("f", f.index))
    groups: dict = {}
    for key in list(parent):
        groups.setdefault(find(key), []).append(key)
    out = []
    for members in groups.values():
        features = [tile.features[i] for kind, i in members if kind == "f"]
        roots = [realms.data[i] for kind, i in members if kind == "r"]
        tiles = {(x, y)}
        symbols = sum(1 for f in features if f.symbol)
        open_ends = sum(len(f.sides) for f in features)
        holders: Counter = Counter()
        for realm in roots:
            tiles |= realm.tiles
            symbols += realm.symbol_count()
            open_ends += realm.open
            holders.update(state.side_of[c] for c, _, _ in realm.meeples)
        open_ends -= 2 * sum(1 for key in links if find(key) == find(members[0]))
        merged = Realm.new(features[0].kind, (x, y), None, 0, 0)
        merged.tiles = tiles
        merged.symbols = {"any": symbols} if symbols else {}
        out.append({
            "complete": open_ends == 0,
            "points": completed_points(state, merged)[0],
            "holders": holders,
        })
    return out


def gain(state: GameState, tile: TileType, x: int, y: int, r: int) -> int:
    """Points the current side would score at once by this placement and its best meeple."""
    me = state.side_of[state.player]
    has_meeple = any(state.reserve[state.player].values())
    total, best_meeple = 0, 0
    for group in _groups(state, tile, x, y, r):
        if not group["complete"]:
            continue
        if _scores(state, group["holders"], me):
            total += group["points"]
        elif not group["holders"] and has_meeple:
            best_meeple = max(best_meeple, group["points"])
    for px, py in centres_around(state, x, y):
        if neighbours_placed(state, px, py) != 7:
            continue
        other = state.board[(px, py)]
        realm = state.realms.realm(other.nodes[other.tile.centre])
        holders = Counter(state.side_of[c] for c, _, _ in realm.meeples)
        if _scores(state, holders, me):
            total += completed_points(state, realm)[0]
        elif not holders and has_meeple:
            best_meeple = max(best_meeple, completed_points(state, realm)[0])
    if tile.centre >= 0 and has_meeple and neighbours_placed(state, x, y) == 8:
        centre = tile.features[tile.centre]
        alone = Realm.new(centre.kind, (x, y), centre.symbol, 0, 0)
        best_meeple = max(best_meeple, completed_points(state, alone)[0])
    return total + best_meeple


def _scores(state: GameState, holders: Counter, me: str) -> bool:
    """Whether ``me`` would score a realm held so, as the edition says (``would_score``)."""
    return state.edition.would_score(holders, me)


def meeple_gain(state: GameState, target: str) -> int:
    """Points a meeple on ``target`` would score at once (0 if it must battle or wait)."""

    spot, _ = resolve_target(state, target)
    realm = state.realms.realm(node_at(state, spot))
    if realm.meeples or not complete(state, realm):
        return 0
    return completed_points(state, realm)[0]
