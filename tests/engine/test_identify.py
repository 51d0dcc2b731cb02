"""Items to gamble on: looks dealt per world, every potion and scroll effect, and the ways to
learn a kind (using it, a scroll of identification, a monster seen drinking), shown by name in
the pack, look and the legend once known."""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine import step
from roguelike.engine.actions import Close, Move, Travel, Use, Wait, Wear
from roguelike.engine.balance import (
    CONFUSED_TURNS,
    DARK_RADIUS,
    DETECT_TURNS,
    HASTE_TURNS,
    LIFE_MAX_HP,
    MONSTER_DRINK_HEAL,
    POTION_DRINKERS,
    SUMMON_SCROLL_COUNT,
)
from roguelike.engine.creatures import ITEMS, MONSTERS, Monster, shown_name
from roguelike.engine.describe import describe, item_label, monster_numbers
from roguelike.engine.events import Message
from roguelike.engine.identify import (
    POTIONS,
    SCROLLS,
    appearances,
    is_known,
    look,
    unknown_in_pack,
)
from roguelike.engine.items import USE, burst_fire, monster_drinks
from roguelike.engine.legend import legend_for
from roguelike.engine.state import GameState, new_game
from roguelike.engine.words import a, upper_first
from roguelike.recording import decode_action, encode_action

SEED = 12345


def game(monsters: bool = False) -> GameState:
    return new_game(SEED, total_floors=3, monsters=monsters)


def neighbour(state: GameState) -> tuple[int, int]:
    """A free walkable cell next to the player."""
    px, py = state.player
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = px + dx, py + dy
            tile = int(state.tiles[y, x])
            free = tiles.WALKABLE[tile] and tile != tiles.DOOR and not state.occupied(x, y)
            if (dx or dy) and free:
                return (x, y)
    raise AssertionError("no free cell next to the spawn")


def add_monster(
    state: GameState, kind: str, pos: tuple[int, int], hp: int | None = None
) -> Monster:
    mid = max((m.id for m in state.monsters), default=0) + 1
    m = Monster(mid, kind, pos[0], pos[1], 0, home=pos, awake=True)
    m.hp = m.max_hp if hp is None else hp
    state.monsters.append(m)
    state.update_view()
    return m


def test_at_least_eight_kinds_of_each_and_four_harmful():
    assert len(POTIONS) >= 8 and len(SCROLLS) >= 8
    harmful = [
        n for n in POTIONS + SCROLLS if ITEMS[n].description.startswith(("Harmful", "Double"))
    ]
    assert len(harmful) >= 4
    for name in POTIONS + SCROLLS:
        assert ITEMS[name].effect in USE


def test_looks_are_dealt_from_the_seed_alone():
    one, again, other = appearances(SEED), appearances(SEED), appearances(SEED + 1)
    assert one == again
    assert one != other
    looks = [look for look, _ in one.values()]
    assert len(set(looks)) == len(looks) == len(POTIONS) + len(SCROLLS)
    assert all(one[p][0].endswith("potion") for p in POTIONS)
    assert all(one[s][0].startswith("scroll titled ") for s in SCROLLS)
    # what is played never changes them: a game's looks are its world's
    state = game()
    state.inventory["healing potion"] = 1
    state.hp -= 3
    step(state, Use("healing potion"))
    assert appearances(state.seed) == one


def test_unknown_until_used_then_named_everywhere():
    state = game()
    state.inventory["speed potion"] = 2
    look = appearances(SEED)["speed potion"][0]
    assert not is_known(state, "speed potion")
    assert item_label(state, "speed potion") == f"{look} (unknown)"
    state.items_lying[neighbour(state)] = "speed potion"
    x, y = neighbour(state)
    assert look in describe(state, x, y) and "speed" not in describe(state, x, y).replace(look, "")
    entries = {e.name: e for e in legend_for(state) if e.group == "Items"}
    assert entries[look].meaning.startswith("Unknown") and "speed potion" not in entries
    events = step(state, Use("speed potion"))
    assert any(f"the {look} is a speed potion" in getattr(e, "text", "") for e in events)
    assert is_known(state, "speed potion") and state.hasted == HASTE_TURNS - 1
    assert item_label(state, "speed potion") == "speed potion"
    assert "speed potion" in describe(state, x, y)
    known = {e.name: e for e in legend_for(state)}["speed potion"]
    assert look in known.meaning and known.colour == appearances(SEED)["speed potion"][1]


def test_an_unknown_potion_is_never_refused_so_it_gives_nothing_away():
    state = game()
    state.inventory["healing potion"] = 2
    assert state.hp == state.max_hp
    step(state, Use("healing potion"))
    assert state.inventory["healing potion"] == 1 and is_known(state, "healing potion")
    turn = state.turn
    step(state, Use("healing potion"))  # known now: refused at full HP, no turn
    assert state.inventory["healing potion"] == 1 and state.turn == turn


def test_the_potions_passing_states():
    state = game()
    for name in ("detection potion", "darkness potion", "hallucination potion", "confusion potion"):
        state.inventory[name] = 1
    seen_before = int(state.visible.sum())
    step(state, Use("darkness potion"))
    assert state.darkness and int(state.visible.sum()) < seen_before
    px, py = state.player
    ys, xs = state.visible.nonzero()
    assert max(abs(xs - px).max(), abs(ys - py).max()) <= DARK_RADIUS
    step(state, Use("detection potion"))
    assert state.detecting == DETECT_TURNS - 1
    step(state, Use("confusion potion"))
    assert state.confused == CONFUSED_TURNS - 1
    refused = step(state, Travel(*state.player))
    assert "too confused" in str(refused[0])
    step(state, Use("hallucination potion"))
    m = add_monster(state, "rat", neighbour(state))
    shown = set()
    for turn in range(state.turn, state.turn + 12):
        state.turn = turn
        shown.add(monster_numbers(state, m).name)
    assert shown - {"rat"}  # it looks like other kinds, turn by turn


def test_a_hallucinating_player_reads_the_kinds_they_see_and_the_record_keeps_the_true_one():
    """The log names a monster as the map and look show it while hallucinating (a blow, its
    blow back, a death), but the run's record of what killed the player is the true kind."""
    state = game()
    state.hallucinating = 500
    state.hp = state.max_hp = 400
    at = neighbour(state)
    goblin = add_monster(state, "goblin", at, hp=10_000)
    dx, dy = at[0] - state.player[0], at[1] - state.player[1]
    said = []
    for _ in range(30):
        said += [e.text for e in step(state, Move(dx, dy)) if isinstance(e, Message)]
    about = [s for s in said if "goblin" in s or "you" in s.lower()]
    assert about and not any("goblin" in s for s in said), said
    named = {n for n in MONSTERS if n != "goblin" and any(f"the {n}" in s.lower() for s in said)}
    assert len(named) >= 2, said  # changing, as the map's does
    state.hp = 1
    state.defence = -100
    for _ in range(60):
        said += [e.text for e in step(state, Wait()) if isinstance(e, Message)]
        if state.dead:
            break
    assert state.dead and state.stats.cause.startswith("killed by a goblin")
    assert goblin.hp > 0 and "You die..." in said[-1] and "goblin" not in said[-1]


def test_a_hoards_unknown_potion_is_named_by_its_look_when_stepped_on():
    state = game()
    at = neighbour(state)
    state.items_lying[at] = "healing potion"
    state.choices[at] = 0
    dx, dy = at[0] - state.player[0], at[1] - state.player[1]
    said = [e.text for e in step(state, Move(dx, dy)) if isinstance(e, Message)]
    seen_as = look(state, "healing potion")[0]
    assert said == [f"{upper_first(a(seen_as))} of a hoard: g takes it, and the rest crumbles."]


def test_summoned_monsters_and_a_doorway_blocker_are_named_as_the_map_shows_them():
    state = game()
    state.hallucinating = 1_000
    state.inventory["summoning scroll"] = 1
    before = {m.id for m in state.monsters}
    said = [e.text for e in step(state, Use("summoning scroll")) if isinstance(e, Message)]
    new = [m for m in state.monsters if m.id not in before]

    def shown_at(turn: int) -> list[str]:  # the looks change each turn: the read's or the next
        now, state.turn = state.turn, turn
        names = [shown_name(state, m) for m in new]
        state.turn = now
        return names

    looks = [shown_at(state.turn - 1), shown_at(state.turn)]
    assert new and said[0].startswith("You read a summoning scroll: ")
    assert any(all(name in said[0] for name in names) for names in looks), (said, looks)
    if all(new[0].kind not in names for names in looks):
        assert new[0].kind not in said[0]
    # a hostile in a doorway the player would close
    door = neighbour(state)
    blocker = new[0]
    state.tiles[door[1], door[0]] = tiles.DOOR_OPEN
    state.monsters = [blocker]
    blocker.x, blocker.y = door
    dx, dy = door[0] - state.player[0], door[1] - state.player[1]
    told = [e.text for e in step(state, Close(dx, dy)) if isinstance(e, Message)]
    assert told == [f"The {shown_name(state, blocker)} stands in the doorway."]


def test_states_wear_off():
    state = game()
    state.inventory["darkness potion"] = 1
    state.inventory["confusion potion"] = 1
    step(state, Use("darkness potion"))
    step(state, Use("confusion potion"))
    for _ in range(60):
        step(state, Wait())
    assert not state.darkness and not state.confused
    assert int(state.visible.sum()) > (2 * DARK_RADIUS + 1) ** 2
    assert "The darkness lifts from your eyes." in state.log


def test_confused_steps_go_astray():
    state = game()
    state.confused = 200
    moves = 0
    astray = 0
    for _ in range(40):
        before = state.player
        step(state, Move(1, 0))
        moves += 1
        if state.player[0] - before[0] != 1:
            astray += 1
    assert 0 < astray < moves


def test_incineration_burns_around_and_the_drinker():
    state = game()
    m = add_monster(state, "orc", neighbour(state))
    hp, mhp = state.hp, m.hp
    state.inventory["incineration potion"] = 1
    step(state, Use("incineration potion"))
    assert state.hp < hp and (m.hp < mhp or m not in state.monsters)
    # burst_fire is the one function the incineration potion calls: far away, nobody burns
    far = (state.player[0] + 5, state.player[1] + 5)
    hp = state.hp
    assert burst_fire(state, *far) == [] and state.hp == hp


def test_scrolls_teleport_aggravate_enchant_summon():
    state = new_game(SEED, total_floors=3)
    for name in ("teleport scroll", "aggravation scroll", "enchanting scroll", "summoning scroll"):
        state.inventory[name] = 1
    start = state.player
    step(state, Use("teleport scroll"))
    assert state.player != start
    step(state, Use("aggravation scroll"))
    assert all(m.awake for m in state.monsters)
    state.inventory["sharp blade"] = 1
    step(state, Wear("sharp blade"))  # enchanting works on what is worn: the blade, no armour
    lo, hi = state.attack
    step(state, Use("enchanting scroll"))
    assert state.attack == (lo + 1, hi + 1) and state.equipment["sharp blade"] == 1
    count = len(state.monsters)
    step(state, Use("summoning scroll"))
    assert count < len(state.monsters) <= count + SUMMON_SCROLL_COUNT


def test_life_potion_heals_fully_and_raises_the_most():
    state = game()
    state.inventory["life potion"] = 1
    most = state.max_hp
    state.hp = 3
    step(state, Use("life potion"))
    assert state.max_hp == most + LIFE_MAX_HP and state.hp == state.max_hp


def test_identification_names_the_chosen_kind():
    state = game()
    state.identified.add("identify scroll")
    state.inventory.update({"identify scroll": 2, "blink scroll": 1, "confusion potion": 1})
    assert unknown_in_pack(state) == ["blink scroll", "confusion potion"]
    turn = state.turn
    step(state, Use("identify scroll", "mapping scroll"))  # not in the pack: refused
    assert state.turn == turn and state.inventory["identify scroll"] == 2
    step(state, Use("identify scroll", "confusion potion"))
    assert is_known(state, "confusion potion") and not is_known(state, "blink scroll")
    assert state.inventory["confusion potion"] == 1  # named, not used
    step(state, Use("identify scroll"))  # no choice: the first unknown
    assert is_known(state, "blink scroll")


def test_an_unknown_identification_scroll_names_another_kind():
    state = game()
    state.inventory.update({"identify scroll": 1, "darkness potion": 1})
    step(state, Use("identify scroll"))
    assert is_known(state, "identify scroll") and is_known(state, "darkness potion")


def test_a_monster_seen_drinking_names_the_healing_potion():
    state = game()
    kind = sorted(POTION_DRINKERS)[0]
    m = add_monster(state, kind, neighbour(state), hp=1)
    events = monster_drinks(state, m)
    assert events and m.hp == 1 + MONSTER_DRINK_HEAL
    assert is_known(state, "healing potion")
    assert monster_drinks(state, m) is None  # it had one potion


def test_a_monster_drinking_unseen_teaches_nothing():
    state = game()
    kind = sorted(POTION_DRINKERS)[0]
    far = next(
        (x, y)
        for y in range(state.height)
        for x in range(state.width)
        if not state.visible[y, x] and state.tiles[y, x] != 0
    )
    m = Monster(99, kind, far[0], far[1], 1, home=far, awake=True)
    state.monsters.append(m)
    assert monster_drinks(state, m) == []
    assert not is_known(state, "healing potion") and m.hp > 1


def test_a_choice_is_recorded():
    action = Use("identify scroll", "speed potion")
    assert decode_action(encode_action(action)) == action
    assert decode_action(encode_action(Use("speed potion"))) == Use("speed potion")
