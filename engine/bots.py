"""Bots that choose moves: ``random``, ``greedy`` (the best one-step value difference,
``meeple.engine.greedy``), ``greedy-v1`` (the best immediate score gain: the first
``greedy``), ``lookahead`` (two turns ahead, the opponent's reply included,
``meeple.engine.lookahead``), ``mcts``, ``mcts-v1`` and ``mcts-learned`` (searches,
``meeple.engine.mcts``).

``random`` and the greedy bots take their choices from the game's seed (a remote game's:
its id; stream ``bot``, indexed by the next ``seq``), so a bot game replays identically;
the searches sample what they cannot see and seed their own randomness from the position.
A bot is named by a spec (``meeple.engine.botspec``): the searches take a
budget, ``:N`` iterations or ``:Xs`` seconds of CPU a move (measured by a clock the caller
passes). Pure: they only read the state (an ``mcts`` bot keeps its last tree for its next
step).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from meeple.engine import chance
from meeple.engine.board import nth_placement, placements
from meeple.engine.botspec import read_spec
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, SkipMeeple, TakeBack
from meeple.engine.deciding import followers_to_take_back, legal_targets
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.engine.flow import awaiting
from meeple.engine.greedy import greedy_move
from meeple.engine.lookahead import Lookahead
from meeple.engine.mcts import LEARNED, Searcher, mcts_move
from meeple.engine.playing import play, settle
from meeple.engine.preview import gain, meeple_gain
from meeple.engine.state import GameState

#: the stream of each kind of pick, encoded once
_STREAMS = {what: f"bot-{what}".encode()
            for what in ("place", "take-back", "follower", "deploy", "target", "size")}


def _pick(state: GameState, what: str, n: int) -> int:
    return chance.below_bytes(state.bot_seed.encode(), _STREAMS[what], state.next_seq, n)


def _available(state: GameState) -> list[str]:
    """The kinds of figure the player has left, in the edition's order (the everyday first)."""
    left = state.reserve[state.player]
    return [figure.name for figure in state.edition.figures if left.get(figure.name)]


def random_move(state: GameState) -> Command:
    """A uniformly random legal placement (``nth_placement``: its cost follows the needs the
    tile fits, not the frontier); then a figure on a random target half the time, of a kind
    the edition's ``bot_figure`` picks (where a figure may be taken back, that a quarter of
    the time)."""
    waiting = awaiting(state)
    if waiting == "place":
        drawn = state.drawn  # (``in_hand``, inline: asked at every placement)
        assert drawn is not None
        tile = state.tileset.types[drawn]
        x, y, rotation = nth_placement(state, tile, functools.partial(_pick, state, "place"))
        return PlaceTile(x, y, rotation)
    if waiting == "meeple":
        mine = followers_to_take_back(state)
        if mine and _pick(state, "take-back", 4) == 0:
            spot = mine[_pick(state, "follower", len(mine))]
            return TakeBack(spot.x, spot.y, spot.feature)
        # (the kinds left are listed only where one goes down: the reserve holds the
        # edition's kinds, in its order)
        left = state.reserve[state.player]
        targets = legal_targets(state) if any(left.values()) else []
        if not targets or _pick(state, "deploy", 2) == 0:
            return SkipMeeple()
        target = targets[_pick(state, "target", len(targets))]
        available = [name for name, count in left.items() if count]
        figure = state.edition.bot_figure(available, functools.partial(_pick, state, "size"))
        return PlaceMeeple(target, figure)
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


def greedy_v1_move(state: GameState) -> Command:
    """``greedy-v1``: the placement and figure choice with the best immediate score gain for
    the player's side, ties broken by the seeded stream, with the everyday figure while one
    is left. Contests are left to chance and count for nothing. A figure goes down only
    where it scores at once."""

    waiting = awaiting(state)
    if waiting == "place":
        tile = state.in_hand
        scored = [(gain(state, tile, x, y, r // 90), (x, y, r)) for x, y, r in placements(state, tile)]
        best = max(points for points, _ in scored)
        top = [move for points, move in scored if points == best]
        x, y, rotation = top[_pick(state, "place", len(top))]
        return PlaceTile(x, y, rotation)
    if waiting == "meeple":

        available = _available(state)
        if not available:
            return SkipMeeple()
        options = [(meeple_gain(state, t), t) for t in legal_targets(state)]
        best = max((points for points, _ in options), default=0)
        if best <= 0:
            return SkipMeeple()
        targets = [t for points, t in options if points == best]
        return PlaceMeeple(targets[_pick(state, "target", len(targets))], available[0])
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


BOTS = {"random": random_move, "greedy": greedy_move, "greedy-v1": greedy_v1_move}
#: the bots a remote game's set-up may name to play on a seat given up (RM-5), by the name
#: it records: every copy checks their moves, so each name keeps its bot for good
TAKEOVER_BOTS = {"random": random_move, "greedy": greedy_v1_move}

Bot = Callable[[GameState], Command]


def bot_named(spec: str, clock: Callable[[], float] | None = None) -> Bot:
    """The bot a spec names (``meeple.engine.botspec``). ``clock`` (CPU seconds, e.g.
    ``time.process_time``) is needed for a budget in seconds: the engine reads no clock.

    :raises InvalidCommand: an unknown bot, a bad budget, a budget for a bot without one.
    """
    name, iterations, seconds = read_spec(spec)
    if name in BOTS:
        return BOTS[name]
    if name == "lookahead":
        return Lookahead()
    if seconds is not None and clock is None:
        raise InvalidCommand(f"{spec!r} needs a clock to measure its CPU time",
                             legal="name an iteration budget: mcts:N")
    if name == "mcts":
        return Searcher(iterations, seconds, clock)
    if name == "mcts-learned":
        return Searcher(iterations, seconds, clock, settings=LEARNED)
    if seconds is not None and clock is not None:
        return _timed(seconds, clock)
    return functools.partial(mcts_move, iterations=iterations)


def _timed(seconds: float, clock: Callable[[], float]) -> Bot:
    def move(state: GameState) -> Command:
        deadline = clock() + seconds
        return mcts_move(state, stop=lambda _: clock() >= deadline)

    return move


def check_can_play(state: GameState) -> None:
    """Whether a bot may play this game on: a digital game whose draws and dice the seed here
    gives (the referee needs them, whatever the bot sees).

    :raises InvalidCommand: a table-mode game; ``IllegalMove``: a sealed game without its seed.
    """
    if not state.digital:
        raise InvalidCommand("bots play digital games only: in table mode the draws and dice "
                             "come from the table")
    if not state.chance_known:
        raise IllegalMove("bots take their choices, like the draws and dice, from the game's "
                          "seed, which in this sealed game only its holder has",
                          rule=state.rule("chance"))


def run_turns(state: GameState, bot: str, turns: int | None,
              clock: Callable[[], float] | None = None):
    """Let a bot (a spec, see ``bot_named``) play ``turns`` turns (None: to the end). Returns
    the state and the events."""

    choose = bot_named(bot, clock)
    check_can_play(state)
    state, written = settle(state)
    start_turn = state.turn
    while awaiting(state) != "over" and (turns is None or state.turn < start_turn + turns):
        state, events = play(state, choose(state))
        written += events
    return state, written
