"""Stealth: noise wakes sleepers within earshot (round walls, not through them), a sleeper
notices the player by a roll of the play stream, a blow on a sleeper is a sneak attack once,
look says who is asleep, the bot sneaks (and its ablation does not), and the new state is
saved."""

from __future__ import annotations

import copy

import pytest

from roguelike import tiles
from roguelike.autoplay import Memory, Policy, decide
from roguelike.autoplay.sneak import _threats
from roguelike.engine import Move, Wait, describe, step
from roguelike.engine.balance import (
    MONSTERS,
    NEAR_FACTOR,
    NOISE_BLOW,
    SENSE_RANGE,
    SNEAK_MULTIPLIER,
    STEALTH_MOST,
    STEALTH_STEP,
)
from roguelike.engine.describe import monster_numbers
from roguelike.engine.stealth import (
    UNAWARE,
    awareness,
    make_noise,
    notice_chance,
    sound_distances,
)
from roguelike.engine.words import counted
from roguelike.recording import digest
from saves import SaveError, codec
from tests.engine.support import add, arena, off
from tests.saves.support import pack_as, world_of


def test_a_noise_wakes_the_sleepers_within_its_loudness_and_not_beyond():
    state, c = arena(3)
    near = add(state, "goblin", off(c, 2, -2), awake=False)
    far = add(state, "goblin", off(c, 3, 0), awake=False)
    hunting = add(state, "rat", off(c, -1, 0))
    events = make_noise(state, *c, 2)
    assert awareness(near) == "unaware" and (near.extra["heard_x"], near.extra["heard_y"]) == c
    assert awareness(far) == "asleep"  # three steps: beyond a loudness of 2
    assert awareness(hunting) == "hunting"  # a hunting monster is not turned by a noise
    assert any("wakes the goblin" in getattr(e, "text", "") for e in events)
    make_noise(state, *c, 3)
    assert awareness(far) == "unaware"


def test_a_wall_stops_sound_which_goes_round_it():
    state, c = arena(3)
    wall_x = c[0] + 1
    for y in range(state.height):  # a wall across the whole floor, east of the player
        state.tiles[y, wall_x] = tiles.WALL
    sleeper = add(state, "goblin", off(c, 2, 0), awake=False)
    assert sound_distances(state, *c, 10)[c[1], c[0] + 2] > 10  # no way round within 10
    make_noise(state, *c, 10)
    assert awareness(sleeper) == "asleep"  # two cells away, but behind the wall


def test_a_blow_is_heard_within_its_loudness_only():
    state, c = arena(3)
    foe = add(state, "goblin", off(c, 1, 0), hp=50)
    heard = add(state, "rat", off(c, -3, 0), awake=False)
    state.stealth = STEALTH_MOST  # the rat does not notice the player: it hears the blow
    assert NOISE_BLOW >= 3
    step(state, Move(1, 0))  # a blow at the awake goblin: noise at the player's cell
    assert foe.awake and heard.awake
    quiet, c = arena(3)
    quiet.stealth = STEALTH_MOST
    sleeper = add(quiet, "rat", off(c, -3, 0), awake=False)
    step(quiet, Wait())  # walking and resting make no noise
    assert not sleeper.awake


def test_the_notice_roll_is_the_play_stream_s_and_follows_the_chance():
    state, c = arena(3)
    m = add(state, "goblin", off(c, 3, 0), awake=False)
    chance = notice_chance(state, m)
    assert chance == MONSTERS["goblin"].perception  # in sight, 3 cells away
    woke = 0
    for _ in range(200):
        m.awake, m.hp, m.energy = False, m.max_hp, 0
        m.x, m.y = off(c, 3, 0)
        m.extra.clear()
        state.hp = state.max_hp
        # the turn's first draw is the goblin's roll (a woken one then acts, and draws more)
        expected = int(copy.deepcopy(state.rng).integers(100)) < chance
        step(state, Wait())
        assert m.awake == expected
        woke += m.awake
    assert 0.03 < woke / 200 < 0.25  # about 10%
    # next to the player the chance is multiplied; stealth takes off; out of range, none
    m.x, m.y = off(c, 1, 0)
    assert notice_chance(state, m) == min(100, chance * NEAR_FACTOR)
    state.stealth = 2
    assert notice_chance(state, m) == (chance - 2 * STEALTH_STEP) * NEAR_FACTOR
    m.x, m.y = c[0] + SENSE_RANGE + 1, c[1]
    assert notice_chance(state, m) == 0


def test_the_same_play_gives_the_same_wakings():
    runs = []
    for _ in range(2):
        state, c = arena(3)
        add(state, "goblin", off(c, 3, 1), awake=False)
        add(state, "hound", off(c, -3, 2), awake=False)
        for _ in range(30):
            step(state, Wait())
        runs.append([(m.awake, m.x, m.y) for m in state.monsters])
    assert runs[0] == runs[1]


def test_a_sneak_attack_is_sure_and_triples_the_damage_once():
    state, c = arena(3)
    m = add(state, "goblin", off(c, 1, 0), hp=200, awake=False)
    stream = copy.deepcopy(state.rng)
    lo, hi = state.attack
    roll = int(stream.integers(lo, hi + 1))  # no roll to hit: the blow is sure
    events = step(state, Move(1, 0))
    damage = max(1, roll - m.info.defence) * SNEAK_MULTIPLIER
    assert m.hp == 200 - damage
    texts = [getattr(e, "text", "") for e in events]
    assert f"You strike the sleeping goblin from the shadows: {damage}!" in texts
    assert m.awake and awareness(m) == "hunting"
    before = m.hp
    events = step(state, Move(1, 0))  # now it is awake: an ordinary blow
    assert not any("shadows" in getattr(e, "text", "") for e in events)
    assert before - m.hp <= hi - m.info.defence


def test_a_sneak_attack_that_kills_says_both():
    state, c = arena(3)
    add(state, "rat", off(c, 1, 0), hp=1, awake=False)
    events = step(state, Move(1, 0))
    text = " ".join(getattr(e, "text", "") for e in events)
    assert "from the shadows" in text and "You kill the rat." in text


def test_an_unaware_monster_goes_to_look_where_the_noise_was():
    state, c = arena(3)
    m = add(state, "goblin", off(c, 3, 3), awake=False)
    make_noise(state, c[0] - 3, c[1] - 3, 10)
    state.stealth = STEALTH_MOST  # it will not notice the player on the way
    start = max(abs(m.x - (c[0] - 3)), abs(m.y - (c[1] - 3)))
    step(state, Wait())
    assert UNAWARE in m.extra
    assert max(abs(m.x - (c[0] - 3)), abs(m.y - (c[1] - 3))) < start


def test_look_says_who_is_asleep_unaware_or_hunting():
    state, c = arena(3)
    m = add(state, "goblin", off(c, 2, 0), awake=False)
    text = describe(state, *m.pos)
    assert "asleep" in text and "sneak attack" in text
    assert monster_numbers(state, m).notice == notice_chance(state, m)
    make_noise(state, *c, 5)
    assert "unaware" in describe(state, *m.pos)
    m.extra.clear()
    text = describe(state, *m.pos)
    assert "awake, hunting you" in text and "sneak attack" not in text


def test_the_bot_creeps_up_on_a_lone_sleeper_and_the_ablation_does_not():
    state, c = arena(3)
    add(state, "rat", off(c, 3, 0), awake=False)
    d = decide(state, memory=Memory())
    assert d.action == Move(1, 0) and "sneaking" in d.why
    d = decide(state, memory=Memory(policy=Policy(no_sneak=True)))
    assert "sneaking" not in d.why
    # next to it, the ablation waits until it is noticed rather than land a sneak attack
    state.monsters[0].x -= 2
    assert decide(state, memory=Memory(policy=Policy(no_sneak=True))).action == Wait()
    assert decide(state, memory=Memory()).action == Move(1, 0)


def test_stealth_and_an_unaware_monster_round_trip_through_a_save():
    state, c = arena(3)
    state.regen_clock = 0  # the arena's frozen clock is no save's
    state.stealth = 4
    m = add(state, "goblin", off(c, 3, 0), awake=False)
    make_noise(state, *c, 5)
    world = world_of(state)
    loaded = codec.decode(codec.encode(world, state, [])).state
    assert loaded.stealth == 4
    got = loaded.monster_at(*m.pos)
    assert got is not None and awareness(got) == "unaware" and got.extra == m.extra
    assert digest(loaded) == digest(state)
    state.stealth = 5
    assert digest(loaded) != digest(state)  # play that changes stealth changes the digest


@pytest.mark.parametrize("value", [-1, STEALTH_MOST + 1, "quiet"])
def test_a_hostile_stealth_is_refused(value):
    state, _ = arena(3)
    state.regen_clock = 0
    world = world_of(state)
    doc = codec.to_document(world, state)
    doc["state"]["stealth"] = value
    with pytest.raises(SaveError, match="stealth"):
        codec.decode(pack_as(world, state, doc))


def test_the_ablation_goes_for_the_sleeper_nearest_by_the_way_not_as_the_crow_flies():
    """Without sneaking, sleepers are threats, nearest first by the way: a sleeper two cells
    off across a chasm but far round it came first from one cell and second from the next
    (the bot walked back and forth for ever, stuck on floor 1 of 8-KX9V-KKGH-KHKT)."""
    state, c = arena(3)
    for dx in range(-10, 3):  # a chasm across the arena, a gap at its east end
        x, y = off(c, dx, 1)
        if tiles.WALKABLE[state.tiles[y, x]]:
            state.tiles[y, x] = tiles.CHASM
    state.update_view()
    across = add(state, "rat", off(c, -2, 2), awake=False)
    near_by_the_way = add(state, "rat", off(c, 3, -3), awake=False)
    memory = Memory(policy=Policy(no_sneak=True))
    order = _threats(state, memory)
    assert order[0] is near_by_the_way and across in order
    assert "rat" in decide(state, memory=memory).why
    assert _threats(state, Memory()) == []  # the full bot sneaks instead: no threat in view


def test_a_monster_woken_behind_a_wall_goes_round_it_to_look_and_does_not_doze_at_once():
    """'The noise wakes the jackal' was said while the panel kept it asleep (found playing at
    80x24): woken across a wall, its straight step was blocked, so it gave up the noise and,
    at its post, fell asleep the same turn. It walks round the wall, as the sound did."""
    state, c = arena(3)
    wall_x = c[0] + 1
    for y in range(c[1] - 2, c[1] + 3):  # a short wall east of the player: sound goes round
        state.tiles[y, wall_x] = tiles.WALL
    m = add(state, "goblin", off(c, 2, 0), awake=False)
    state.stealth = STEALTH_MOST  # it will not notice the player on the way
    make_noise(state, *c, 10)
    assert awareness(m) == "unaware"
    start = m.pos
    for _ in range(4):
        step(state, Wait())
        assert awareness(m) == "unaware", "it fell asleep before it went to look"
    assert m.pos != start  # it moved, round the wall (its straight way is walled)
    assert m.x > wall_x or abs(m.y - c[1]) > 2  # still beside or round the wall's end


def test_an_unaware_monster_with_no_way_free_listens_then_dozes():
    state, c = arena(3)
    for y in range(state.height):  # a wall right across: the monster cannot get round
        state.tiles[y, c[0] + 1] = tiles.WALL
    m = add(state, "goblin", off(c, 2, 0), awake=False)
    m.awake, m.extra[UNAWARE] = True, 0  # heard a noise it has no way to
    m.extra["heard_x"], m.extra["heard_y"] = c
    state.stealth = STEALTH_MOST
    for _ in range(5):
        step(state, Wait())
    assert awareness(m) == "unaware" and m.pos == off(c, 2, 0)
    for _ in range(40):
        step(state, Wait())
    assert awareness(m) == "asleep"


def test_the_noise_names_the_sleepers_it_wakes_counted_by_kind():
    """'The noise wakes the jackal, the jackal.' (played at 80x24): the sleepers in view that
    wake are counted by kind, as the ones coming into view are."""
    state, c = arena(3)
    for dx in (2, 3):
        add(state, "jackal", off(c, dx, 0), awake=False)
    add(state, "bat", off(c, -2, 0), awake=False)
    state.update_view()
    said = [getattr(e, "text", "") for e in make_noise(state, *c, 10)]
    assert said == ["The noise wakes the two jackals and the bat."]


@pytest.mark.parametrize(
    "kinds,definite,words",
    [
        (["rat"], False, "a rat"),
        (["orc", "rat", "orc"], False, "two orcs and a rat"),
        (["fox"] * 11, True, "the 11 foxes"),
        (["bat", "jackal", "jackal", "ant"], True, "the two jackals, the ant and the bat"),
    ],
)
def test_counted_names_each_kind_once_the_most_numerous_first(kinds, definite, words):
    assert counted(kinds, definite=definite) == words
