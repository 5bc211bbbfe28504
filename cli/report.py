"""Rendering results of the game commands as text or JSON."""

from __future__ import annotations

import textwrap

import msgspec

from meeple.cli import views
from meeple.cli.output import emit_json, say, write_file
from meeple.cli.pictures.looks import BASE_REASON_WORDS
from meeple.cli.pictures.narrate import take_back_rule, tell
from meeple.cli.store import Failure
from meeple.engine import EDITIONS, Game, GameState, awaiting, awaiting_seed, export
from meeple.events.log import short
from meeple.events.model import Event, TurnEnded
from meeple.events.text import escaped
from meeple.events.tileset import TileSetDef

#: the note for a tile set file of one's own that says it is a reconstruction
OWN_RECONSTRUCTED = ("this tile set is marked reconstructed: its tiles were not checked against "
                     "a box")


def reconstructed_note(name: str) -> str:
    """The note shown under a reconstructed tile set: a bundled one's (its edition's
    ``tileset_note``), or a set's of one's own (``name``: the set's name)."""
    note = next((f"{e.tileset_note.rstrip('.')} (`meeple new --tileset FILE`)" for e in EDITIONS.values()
                 if e.tileset == name and e.tileset_note), OWN_RECONSTRUCTED)
    return textwrap.fill(f"note: {note}", width=80, break_on_hyphens=False)


def next_line(state: GameState) -> str:
    """What happens next, as one line with the command to type."""
    waiting = awaiting(state)
    who = state.player
    if state.joint is not None and waiting in ("draw", "dice", None):
        from meeple.engine.protocol import waiting_for

        seats = waiting_for(state, state.current)
        if seats and not state.joint.all_committed:
            return (f"Next: {state.players[seats[0]]} to join (`meeple send GAME --out FILE` "
                    "the set-up to them; they run `meeple join GAME FILE`)")
        if seats:
            names = ", ".join(state.players[s] for s in seats)
            return (f"Next: {names} to reveal (remote game: `meeple send GAME` what you "
                    "wrote, `meeple receive GAME FILE` what they send)")
    if awaiting_seed(state):
        what = "the end of the game, which reveals the seed" if state.tiles_left() == 0 \
            and state.battle is None else "a draw or roll from the seed"
        return (f"Next: {what}: only the seed's holder, where GAME.seed is, writes it "
                "(`meeple continue GAME`)")
    bot_seats = views.seated_bots(state)
    seated = bot_seats.get(who)
    if seated is not None and waiting in ("place", "meeple") \
            and set(bot_seats) >= set(state.players):
        return (f"Next: {who}, a bot seat ({seated}); every seat is a bot: `meeple autoplay "
                "GAME --bot BOT` plays it")
    if seated is not None and waiting in ("place", "meeple"):
        return (f"Next: {who}, a bot seat ({seated}), to play: `meeple continue GAME` lets it "
                "play (it waits after an undo or a redo)")
    if waiting == "place":
        return f"Next: {who} places {escaped(str(state.drawn))} (`meeple moves` lists where)"
    if waiting == "meeple":
        from meeple.engine import legal_targets

        targets = legal_targets(state) if any(state.reserve[who].values()) else []
        options = ", ".join(targets) if targets else "none"
        from meeple.engine import followers_to_take_back

        back = followers_to_take_back(state)
        extra = ""
        if back:
            extra = (f", or take a {state.edition.figure} back (`meeple take-back GAME X Y TARGET`: "
                     + ", ".join(f"{s.x} {s.y} {s.feature}" for s in back)
                     + f"; {take_back_rule(state.edition)})")
        what = state.edition.figure
        return f"Next: {who} may place a {what} (targets: {options}){extra} or skip"
    if waiting == "draw":
        return f"Next: {who} draws a tile and enters it (`meeple draw GAME TILE`)"
    if waiting == "dice":
        battle = state.battle
        assert battle is not None
        wanted = " ".join(f"{s}=" + ",".join(["N"] * battle.dice[s]) for s in battle.active)
        return f"Next: enter the dice of this battle round (`meeple roll GAME {wanted}`)"
    if waiting == "over":
        return "The game is over."
    return "Next: the rules have consequences to write: `meeple continue GAME` writes them."


def report_move(path: str, state: GameState, events: list[Event], head: str | None,
                as_json: bool) -> None:
    if as_json:
        emit_json({
            "events": [msgspec.to_builtins(e) for e in events],
            "status": views.status(state, head or ""),
        })
        return
    for event in events:
        say(tell(event, state.edition))
    say(next_line(state))
    say(f"head {short(head)}")


def print_status(path: str, state: GameState, head: str | None, as_json: bool,
                 remote: dict | None = None) -> None:
    view = views.status(state, head)
    if remote is not None:
        view["remote"] = remote
    if as_json:
        emit_json(view)
        return
    say(f"{escaped(path)}: turn {view['turn']}, {view['player']} ({escaped(view['name'])}): "
        f"{view['phase'].replace('_', ' ')}" + (f" {escaped(view['tile'])}" if view["tile"]
                                                else ""))
    say(f"  tiles left {view['tiles_left']} · {view['mode']} mode"
        + (" · sealed seed" if view["sealed"] else "")
        + (" · team variant" if view["team"] else "")
        + f" · tile set {escaped(view['tileset']['name'])} "
          f"({escaped(view['tileset']['status'])})")
    say("  scores   " + "  ".join(f"{s} {p}" for s, p in view["scores"].items()))
    figures = [figure.name for figure in state.edition.figures]
    say("  reserve  " + "  ".join(f"{c} " + "+".join(str(r[f]) for f in figures)
                                  for c, r in view["reserves"].items())
        + (f"  ({'+'.join(figures)})" if len(figures) > 1 else ""))
    if view["remaining"]:
        import textwrap

        say(textwrap.fill(" ".join(f"{escaped(t)}×{n}" for t, n in view["remaining"].items()),
                          width=80, initial_indent="  tiles    ", subsequent_indent=" " * 11,
                          break_on_hyphens=False))
    if view["bots"]:
        say("  bots     " + "  ".join(f"{c} ({b})" for c, b in view["bots"].items())
            + "  (recorded seats: they play after each of your moves)")
    if "battle" in view:
        say("  battle   " + ", ".join(f"{s} rolls {n}" for s, n in view["battle"]["dice"].items()))
    if "winners" in view:
        say("  winners  " + ", ".join(view["winners"]))
    if remote is not None:
        waiting = ", ".join(remote["waiting_for"]) or "nobody"
        say(f"  remote   game {remote['game'][:12]}; you are {remote['colour']}; waiting for "
            f"{waiting}" + ("; your turn" if remote["your_turn"] else "")
            + ("; send your lines (`meeple send`)" if remote["must_send"] else ""))
        if remote.get("given_up"):
            mine = remote["colour"] in remote["given_up"]
            say(f"  given up {', '.join(remote['given_up'])}: played by the "
                f"{remote.get('takeover')} bot (RM-5; the game is unrated)"
                + ("; your seat too: your copy can only receive" if mine else ""))
    undo = view["undo"]
    say(f"  undo     {undo['steps']} step(s) ({undo['policy']}), redo {undo['redo']}")
    say(f"  head     {view['head_short']}  ({view['head']})")
    if awaiting(state) == "place":
        from meeple.cli.pictures.tilesheet import in_hand

        say(in_hand(state))
    say(next_line(state))


def print_moves(state: GameState, as_json: bool) -> None:
    listed = views.moves(state)
    if as_json:
        emit_json(listed)
        return
    waiting = awaiting(state)
    if waiting == "place":
        from meeple.cli.labels import rotation_number, shown_spots
        from meeple.cli.pictures.tilesheet import in_hand

        say(in_hand(state))
        found = shown_spots(state)
        say(f"{state.player} places {escaped(str(state.drawn))}: {len(listed)} legal "
            f"placement(s) in {len(found)} cell(s) (labels as on the board: b2 is "
            "cell b, rotation 2 = 90°)")
        by_cell = {(move["x"], move["y"], move["rotation"]): move for move in listed}
        for name, (x, y, turns) in found.items():
            say(f"  {name}: " + " ".join(f"{name}{rotation_number(d)}" for d in turns)
                + f"  (x {x}, y {y})")
            for degrees in turns:
                targets = " ".join(by_cell[(x, y, degrees)]["targets"]) or "-"
                say(f"    {name + str(rotation_number(degrees)):<5} {x:>3} {y:>3} {degrees:>3}"
                    f"   {state.edition.figure}: {targets}")
    elif waiting == "meeple":
        move = listed[0]
        targets = ", ".join(move["targets"]) or "none (skip)"
        say(f"{state.player} placed at ({move['x']}, {move['y']}); {state.edition.figure} "
            f"targets: {targets}")
        if move.get("take_back"):
            say(f"  or take back ({take_back_rule(state.edition)}): " + ", ".join(
                f"{s['x']} {s['y']} {s['feature']}" for s in move["take_back"]))
    else:
        say(f"no placement to make now: {next_line(state)}")


PICTURE_NOTE = ("Tile set reconstructed, not checked against the box: pass --tileset FILE "
                "with your own box's tiles")


def _picture_note(state: GameState) -> str | None:
    return PICTURE_NOTE if state.tileset.status == "reconstructed" else None


def export_html(game: Game, path: str, made=None) -> None:
    """Write the replay page of ``game`` (``made``: its frames, made by the walk that loaded
    it, ``meeple.cli.pictures.viewer.Frames``)."""
    from meeple.cli.pictures.viewer import PageTooLarge, page_parts

    try:
        parts = page_parts(game, note=_picture_note(game.state), made=made)
    except PageTooLarge as exc:
        raise Failure(str(exc), 1) from None
    write_file(path, parts, "the HTML replay")


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def print_board(game: Game, state: GameState, *, plain: bool, compact: bool,
                as_json: bool, svg: str | None = None) -> None:
    """The board of ``game`` in ``state`` (its last, or one kept with ``StateAt``)."""
    from meeple.cli.pictures.board import COMPACT, legend, pick_size, render, to_plain, to_rich

    if svg is not None:
        from meeple.cli.pictures.svg import board_svg

        write_file(svg, board_svg(state, highlight=state.placed_at, note=_picture_note(state)),
                   "the board as SVG")
        return
    if as_json:
        emit_json(export(state))
        return
    console = _console()
    terminal = console.is_terminal and not plain
    size = COMPACT if compact else pick_size(state, console.width,
                                             console.height if terminal else None)
    lines = render(state, width=console.width, unicode=terminal, highlight=state.placed_at,
                   size=size)
    if terminal:
        console.print(to_rich(lines))
    else:
        say(to_plain(lines))
    say(legend(state, unicode=terminal, compact=not size.framed))
    if state.tileset.status == "reconstructed":
        say(reconstructed_note(state.tileset.name))


class StateAt:
    """The state at seq ``at`` or at the end of turn ``turn`` (the last time it ended, after
    an undo), kept as the walk that loads a game passes it (``meeple.engine.check.verify``):
    the log is walked once.

    :raises Failure: (2) both given.
    """

    def __init__(self, at: int | None, turn: int | None) -> None:
        if at is not None and turn is not None:
            raise Failure("--at and --turn exclude each other", 2)
        self.at, self.turn = at, turn
        self.state: GameState | None = None

    def __call__(self, event: Event, state: GameState) -> None:
        if event.seq == self.at or (self.turn is not None and isinstance(event, TurnEnded)
                                    and event.turn == self.turn):
            self.state = state.copy()

    def of(self, game: Game) -> GameState:
        """The state kept, once ``game`` is loaded through this visitor.

        :raises Failure: (1) a seq or turn the log does not hold.
        """
        if self.at is None and self.turn is None:
            return game.state
        if self.state is None and self.at is not None:
            raise Failure(f"--at {self.at}: the log has seq 0 to {len(game.events) - 1}", 1)
        if self.state is None:
            raise Failure(f"--turn {self.turn}: no turn {self.turn} has ended in this game", 1)
        return self.state


#: the most tiles `replay --show` draws over all its boards
SHOW_BUDGET = 2_000_000


class TurnBoards:
    """The board after each turn from ``first`` to ``last`` (seqs), drawn as the walk that
    loads the game passes it (the log is walked once); at most ``SHOW_BUDGET`` tiles in all.
    """

    def __init__(self, first: int | None, last: int | None) -> None:
        self.first, self.last = first, last
        self.drawn: dict[int, str] = {}
        self.tiles = 0
        self.turns = 0

    def __call__(self, event: Event, state: GameState) -> None:
        if not isinstance(event, TurnEnded) or not _between(event.seq, self.first, self.last):
            return
        from meeple.cli.pictures.board import render, to_plain

        self.turns += 1
        self.tiles += len(state.board)
        if self.tiles <= SHOW_BUDGET:
            self.drawn[event.seq] = to_plain(render(state, width=10_000, unicode=False,
                                                    highlight=state.placed_at))
        else:
            self.drawn.clear()

    def check(self) -> None:
        """:raises Failure: the boards would pass the budget."""
        if self.tiles > SHOW_BUDGET:
            raise Failure(f"--show would draw {self.turns:,} boards of {self.tiles:,} tiles in "
                          f"all (at most {SHOW_BUDGET:,}): use `meeple show --turn N` for the "
                          "turns you want", 1)


def _between(seq: int, first: int | None, last: int | None) -> bool:
    return (first is None or seq >= first) and (last is None or seq <= last)


def print_replay(game: Game, *, first: int | None, last: int | None,
                 boards: TurnBoards | None, as_json: bool, heads: bool = False) -> None:
    """The narrative; with ``boards`` (given to the walk that loaded ``game``) the board after
    each turn, with ``heads`` the head hash after each turn (what players write down)."""
    from meeple.cli.history import undone_seqs

    events = game.events
    hashes = game.hashes
    edition = game.state.edition
    undone = undone_seqs(events, game.state)
    if as_json:
        rows = []
        for e in events:
            if _between(e.seq, first, last):
                row = {"seq": e.seq, "undone": e.seq in undone, "text": tell(e, edition),
                       "event": msgspec.to_builtins(e)}
                if heads:
                    row["head"] = hashes[e.seq]
                rows.append(row)
        emit_json(rows)
        return
    if boards is not None:
        boards.check()
    for event in events:
        if not _between(event.seq, first, last):
            continue
        mark = "  (undone)" if event.seq in undone else ""
        prefix = "~" if event.seq in undone else " "
        say(f"{prefix}{event.seq:>4}  {tell(event, edition)}{mark}")
        turn_over = isinstance(event, TurnEnded) and event.seq not in undone
        if boards is not None and turn_over:
            say(boards.drawn[event.seq])
        if heads and (turn_over or event.seq == len(events) - 1):
            say(f"      head after line {event.seq + 1}: {hashes[event.seq]}")




def print_score(state: GameState, as_json: bool) -> None:
    """The score table: each scoring with its line, side, points, realm, formula and rule (a
    scoring's counted cities below it), then the points of each side by kind, with totals."""
    view = views.score(state)
    if as_json:
        emit_json(view)
        return
    label = _side_labels(state)
    look = state.edition.look
    say("Scores: " + "  ".join(f"{label[s]} {p}" for s, p in view["scores"].items()))
    rows = view["breakdown"]
    side_width = max([4] + [len(label[row["side"]]) for row in rows])
    table = []
    for row in rows:
        realm = row["realm"]
        reason = row["reason"]
        what = look.reason_nouns.get(reason) or look.realm_words.get(row["kind"], row["kind"])
        why = look.reason_words.get(reason) or BASE_REASON_WORDS.get(reason, reason)
        table.append((row, f"{what}, {why}",
                      f"({realm['x']}, {realm['y']}) {realm['feature']}"))
    what_width = max([3] + [len(what) for _, what, _ in table])
    where_width = max([5] + [len(where) for _, _, where in table])
    rule_width = max([4] + [len(row["rule"]) for row in rows])
    if rows:
        say(f"  {'line':>4}  {'side':<{side_width}} {'pts':>3}  {'for':<{what_width}}  "
            f"{'realm':<{where_width}}  {'rule':<{rule_width}}  points")
    for row, what, where in table:
        say(f"  {row['seq'] + 1:>4}  {label[row['side']]:<{side_width}} {row['points']:>3}  "
            f"{what:<{what_width}}  {where:<{where_width}}  {row['rule']:<{rule_width}}  "
            f"{row['formula']}")
        if row.get("counted_cities"):
            cities = " · ".join(f"({c['realm']['x']}, {c['realm']['y']}) {c['realm']['feature']}"
                                for c in row["counted_cities"])
            say(f"  {'':>4}  {'':<{side_width}} {'':>3}  cities counted: {cities}")
    if rows:
        say()
        _say_totals(state, view, label)
    if view["over"]:
        word = "Winner" if len(view["winners"]) == 1 else "Winners (shared victory)"
        say(f"{word}: {', '.join(label[w] for w in view['winners'])}")


def _say_totals(state: GameState, view: dict, label: dict[str, str]) -> None:
    """Points by side and kind, as a table: each completed kind, the edition's own columns
    (``Edition.score_columns``), the end."""
    words = state.edition.vocabulary
    look = state.edition.look
    columns = [(look.plurals.get(kind) or look.realm_words.get(kind, kind) + "s", kind)
               for kind in (words.path, words.area, words.centre)]
    columns += [(title, title) for title in dict.fromkeys(state.edition.score_columns.values())]
    columns += [("at the end", "final"), ("total", "total")]
    width = max([4] + [len(label[side]) for side in view["totals"]])
    say("Points by kind:")
    say(f"  {'side':<{width}} " + " ".join(f"{title:>{max(len(title), 5)}}"
                                           for title, _ in columns))
    for side, kinds in view["totals"].items():
        final = sum(points for kind, points in kinds.items() if kind.startswith("final "))
        cells = {**kinds, "final": final, "total": view["scores"][side]}
        say(f"  {label[side]:<{width}} " + " ".join(
            f"{cells.get(key, 0):>{max(len(title), 5)}}" for title, key in columns))


def _side_labels(state: GameState) -> dict[str, str]:
    """How the score table names each side: a colour, or in the team variant the faction
    with its players (``rebel (red, green)`` in a team game)."""
    if not state.setup.team:
        return {side: side for side in state.scores}
    return {side: f"{side} ({', '.join(c for c in state.players if state.side_of[c] == side)})"
            for side in state.scores}


def print_tiles(definition: TileSetDef, as_json: bool, svg: str | None = None) -> None:
    from meeple.cli.pictures.tilesheet import sheet
    from meeple.engine import compile_tileset

    tileset = compile_tileset(definition)
    if svg is not None:
        from meeple.cli.pictures.svg import sheet_svg

        note = PICTURE_NOTE if tileset.status == "reconstructed" else None
        write_file(svg, sheet_svg(tileset, note=note), "the tile sheet as SVG")
        return
    if as_json:
        emit_json({"name": tileset.name, "status": tileset.status, "sha256": tileset.sha256,
                   "total": tileset.total(), "start": tileset.start,
                   "tiles": msgspec.to_builtins(definition.tiles)})
        return
    say(f"Tile set {escaped(tileset.name)}: {tileset.total()} tiles in {len(tileset.types)} types, "
        f"start tile {tileset.start}, status {tileset.status}, sha256 {tileset.sha256[:12]}")
    if tileset.status == "reconstructed":
        say(reconstructed_note(tileset.name))
    elif tileset.status != "verified" and definition.count_note:
        say(f"note: {definition.count_note}")
    say(sheet(tileset))
