"""The event union: round trips and located rejections (DESIGN.md, "Events and the log")."""

import msgspec
import pytest

from meeple.engine import new_game
from meeple.events.model import (
    EVENT_TYPES,
    BattleEnded,
    BattleSide,
    BattleStarted,
    Committed,
    DiceRolled,
    GameEnded,
    MeeplePlaced,
    MeepleReturned,
    MeepleSkipped,
    MeepleTakenBack,
    PointsScored,
    Redone,
    Revealed,
    Roll,
    SideScore,
    Spot,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    TimeoutClaimed,
    TurnEnded,
    Undone,
    decode,
    encode,
    line_schema,
    tag_of,
)

from helpers import bundled

SPOT = Spot(x=1, y=-2, feature="route:E")

SAMPLES = [
    new_game(["red", "black"], bundled(), seed="42"),
    TileDrawn(seq=1, player="red", tile="U"),
    TileSetAside(seq=2, player="red", tile="X", disposition="reshuffled", position=3),
    TilePlaced(seq=3, player="red", tile="U", x=1, y=0, rotation=90),
    MeeplePlaced(seq=4, player="red", target="planet@0,-1", figure="large"),
    MeepleSkipped(seq=5, player="black"),
    BattleStarted(seq=6, realm=SPOT, sides=(BattleSide(side="red", dice=2),)),
    DiceRolled(seq=7, rolls=(Roll(side="red", values=(4, 6)),)),
    PointsScored(seq=8, side="red", points=4, reason="realm", rule="SW-6.3", realm=SPOT, tiles=4),
    MeepleReturned(seq=9, player="red", figure="small", spot=SPOT),
    BattleEnded(seq=10, realm=SPOT, winner="red"),
    TurnEnded(seq=11, player="red", turn=1),
    GameEnded(seq=12, scores=(SideScore(side="red", points=4),), winners=("red",)),
    Undone(seq=13, steps=(3,)),
    Redone(seq=14, steps=(3,)),
    MeepleTakenBack(seq=15, player="blue", spot=Spot(x=0, y=1, feature="field:Nw")),
    PointsScored(seq=16, side="blue", points=6, reason="farm", rule="CL-6", realm=SPOT, cities=2),
    Committed(seq=17, player="red", chains=("ab" * 32, "cd" * 32)),
    Revealed(seq=18, player="red", slot="draw:1", index=0, element="ef" * 32),
    TimeoutClaimed(seq=19, player="red", against="black", at=1_800_000_000),
]


def test_samples_cover_every_event_type():
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: tag_of(type(e)))
def test_every_event_round_trips(event):
    raw = encode(event)
    assert decode(raw) == event
    assert msgspec.json.decode(raw)["type"] == tag_of(type(event))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"type":"tile_flipped","seq":1,"prev":null}', "Invalid value 'tile_flipped'"),
        (b'{"type":"tile_drawn","seq":1,"prev":null,"player":"red","tile":"U","x":1}',
         "unknown field `x`"),
        (b'{"type":"tile_drawn","seq":"1","prev":null,"player":"red","tile":"U"}',
         "Expected `int`, got `str` - at `$.seq`"),
        (b'{"type":"tile_drawn","seq":1,"prev":null,"player":"purple","tile":"U"}',
         "Invalid enum value 'purple' - at `$.player`"),
        (b'{"type":"tile_placed","seq":1,"prev":null,"player":"red","tile":"U","x":0,"y":0,'
         b'"rotation":45}', "Invalid enum value 45 - at `$.rotation`"),
    ],
)
def test_bad_lines_are_rejected_with_the_field(line, message):
    with pytest.raises(msgspec.ValidationError, match=message.replace("$", r"\$")):
        decode(line)


def test_schema_describes_every_tag():
    schema = line_schema()
    tags = set(schema["discriminator"]["mapping"])
    assert tags == {tag_of(t) for t in EVENT_TYPES}
