"""The run's text at its end: a morgue a player would post. It gives the score term by term,
the gear, the pack (named as the player knows each item), the last messages and the map round
the player on the floor where the run ended; the run record carries them (run format 3), and
older run formats still read, without them."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zlib

import pytest

import roguelike.engine.final as final
from roguelike import seeds, tiles
from roguelike.engine import new_game
from roguelike.engine.final import LAST_MESSAGES, MAP_HEIGHT, MAP_WIDTH, map_window
from roguelike.version import GENERATOR_VERSION
from saves.morgue import morgue
from saves.record import (
    MAGIC,
    RUN_FORMAT,
    RunFileError,
    RunRecord,
    header_line,
    pack,
    record_of,
    unpack,
)
from saves.runs import score, score_parts

STARTED = "2026-01-02T03:04:05.000+00:00"
ENDED = "2026-01-02T04:00:00.000+00:00"


def died_state():
    """A run that ended in a death on floor 1: an upgrade taken, a pack, a log, a puzzle."""
    state = new_game(seeds.read_stored("N65Q-QBJ0-23PV"), preset="small", total_floors=3)
    state.equipment = {"iron plate": -1, "sharp blade": 0}
    state.perks = ["toughness"]
    state.inventory = {"healing potion": 2, "fire bomb": 1}
    state.identified.add("healing potion")  # the morgue names what the player knew
    state.hint_coins = 3
    state.stats.puzzle_scores.append((1, "jugs", "easy", 80))
    for n in range(14):
        state.say(f"message {n}")
    state.say("The goblin hits you (4). You die...")
    state.hp, state.dead, state.stats.cause = 0, True, "killed by a goblin on floor 1"
    state.turn = 321
    return state


def died_record(state=None) -> RunRecord:
    return record_of(
        state or died_state(), world="Posted", started=STARTED, ended=ENDED, recording=None
    )


def test_the_morgue_has_every_section_of_a_runs_end():
    state = died_state()
    text = morgue(died_record(state))
    # the score, term by term, adding up to it
    parts = score_parts(False, 1, 321, [80], kills=state.stats.kills)
    total = score(False, 1, 321, [80], kills=state.stats.kills)
    assert sum(p.points for p in parts) == total == 200 + 5 * state.stats.kills + 80
    assert f"Score        {total}" in text
    for p in parts:
        assert f"  {p.name:<10} {p.points:>5}  ({p.how})" in text
    assert "200 × floor 1" in text and "1 solved" in text
    assert f"5 × {state.stats.kills} monsters killed" in text

    # the gear
    gear = text.split("Equipment and perks:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.split("  (")[0] for line in gear] == [
        "  sharp blade",
        "  iron plate",
        "  perk: toughness",
    ]
    assert "(corroded -1)" in gear[1]
    # the pack, then the coins
    pack_section = text.split("Pack:\n", 1)[1].split("\n\n", 1)[0]
    assert pack_section.splitlines() == [
        "  2 × a healing potion",
        "  a fire bomb",
        "  3 hint coins",
    ]
    # the last messages, oldest first, the death last
    last = text.split("Last messages:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(last) == LAST_MESSAGES
    assert last[-1] == "  The goblin hits you (4). You die..."
    assert last[0] == "  message 5"
    # the map round the player
    assert "Floor 1, round the player at the end (@):" in text
    framed = text.split("round the player at the end (@):\n", 1)[1].split("\n\n", 1)[0]
    top, *shown, bottom = framed.splitlines()
    assert top == bottom == "  +" + "-" * MAP_WIDTH + "+"
    assert len(shown) == MAP_HEIGHT and all(r.startswith("  |") and r.endswith("|") for r in shown)
    assert sum(line.count("@") for line in shown) == 1


def test_the_map_window_is_what_the_player_explored_round_them():
    state = died_state()
    rows = map_window(state)
    assert len(rows) == MAP_HEIGHT and all(len(r) == MAP_WIDTH for r in rows)
    px, py = state.player
    x0 = min(max(0, px - MAP_WIDTH // 2), state.width - MAP_WIDTH)
    y0 = min(max(0, py - MAP_HEIGHT // 2), state.height - MAP_HEIGHT)
    assert rows[py - y0][px - x0] == "@"
    for y in range(y0, y0 + MAP_HEIGHT):
        for x in range(x0, x0 + MAP_WIDTH):
            row = rows[y - y0]
            ch = row[x - x0] if x - x0 < len(row) else " "
            if not state.explored[y, x]:
                assert ch == " ", (x, y)  # nothing unseen is given away
            elif (x, y) == state.player:
                continue
            else:
                on = {*state.items_lying, *state.keys_lying}
                on |= {m.pos for m in state.monsters + state.allies}
                if (x, y) not in on:
                    assert ch == tiles.GLYPHS[state.tiles[y, x]], (x, y)


def test_a_monster_in_view_is_on_the_map_and_one_out_of_view_is_not():
    state = died_state()
    px, py = state.player
    seen = [m for m in state.monsters if state.visible[m.y, m.x]]
    unseen = [m for m in state.monsters if not state.visible[m.y, m.x] and state.explored[m.y, m.x]]
    rows = map_window(state, width=state.width, height=state.height)
    for m in seen:
        assert rows[m.y][m.x] == m.info.glyph
    for m in unseen:
        row = rows[m.y]
        assert (
            m.x >= len(row)
            or row[m.x] != m.info.glyph
            or tiles.GLYPHS[state.tiles[m.y, m.x]] == m.info.glyph
        )


def test_the_pack_is_named_through_item_label(monkeypatch):
    """Identification (another part of the game) names items through one function: the
    morgue's pack takes its words from it."""
    monkeypatch.setattr(final, "item_label", lambda state, name: f"murky {name}")
    text = morgue(died_record())
    assert "  2 × a murky healing potion" in text and "  a murky fire bomb" in text


def test_a_record_keeps_its_end_through_the_run_file():
    record = died_record()
    data = pack(record)
    head = json.loads(data[len(MAGIC) : data.index(b"\n")])
    assert head["format"] == RUN_FORMAT == 3
    back = unpack(data)
    assert back.final == record.final and back.final is not None
    assert morgue(back) == morgue(record)


def _file(doc: dict, version: int) -> bytes:
    payload = zlib.compress(json.dumps(doc).encode())
    head = {
        "format": version,
        "game": "test",
        "generator": GENERATOR_VERSION,
        "length": len(payload),
        "blake2b": hashlib.blake2b(payload, digest_size=32).hexdigest(),
    }
    return header_line(head) + payload


def test_an_older_run_format_reads_as_before_without_the_end():
    doc = died_record().to_json()
    del doc["final"]
    del doc["equipment"]
    older = unpack(_file(doc, 2))
    assert older.final is None and older.equipment is None
    text = morgue(older)
    assert "not kept (a record of an older run format)" in text
    assert "Pack:" not in text and "Last messages:" not in text
    assert f"Score        {older.score}" in text and "the formula gives" not in text


def test_a_run_file_whose_end_does_not_fit_its_format_is_refused():
    doc = died_record().to_json()
    with pytest.raises(RunFileError, match="run.equipment: a record of run format 2 holds it"):
        unpack(_file(doc, 2))
    del doc["final"]
    with pytest.raises(RunFileError, match="run.final: a record of run format 3 lacks it"):
        unpack(_file(doc, 3))


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("messages", ["x"] * (LAST_MESSAGES + 1), "run.final.messages"),
        ("map", ["x" * 500], r"run.final.map\[0\]"),
        ("gear", "not a list", "run.final.gear"),
        ("floor", 99, "run.final.floor"),
    ],
)
def test_a_hostile_end_is_bounded(key, value, match):
    doc = died_record().to_json()
    doc["final"][key] = value
    with pytest.raises(RunFileError, match=match):
        unpack(_file(doc, 3))


def test_text_from_the_file_cannot_drive_the_terminal():
    record = died_record()
    assert record.final is not None
    hostile = dataclasses.replace(
        record.final, messages=("\x1b[2J\x1b]0;owned\x07 you die", *record.final.messages[1:])
    )
    text = morgue(unpack(pack(dataclasses.replace(record, final=hostile))))
    assert "\x1b" not in text and "\x07" not in text and "you die" in text


def test_the_dungeon_outweighs_the_puzzles_term_by_term():
    """A floor is worth two perfect puzzles, a kill counts (up to a bound): the dungeon is the
    game, the puzzles a part of it (the measured split over the bot's won runs is the bot
    bench's)."""

    def total(floors: int, kills: int, puzzles: list[int]) -> int:
        return score(False, floors, 100, puzzles, kills=kills)

    floor = total(2, 0, []) - total(1, 0, [])
    perfect = total(1, 0, [100]) - total(1, 0, [])
    assert floor == 2 * perfect > 0
    assert total(1, 5, []) > total(1, 0, [])
    assert total(1, 10_000, []) == total(1, 200, []) < total(2, 200, [])  # kills are bounded
    won = score_parts(True, 5, 8000, [100] * 8, kills=0)
    by_name = {p.name: p.points for p in won}
    assert by_name["depth"] + by_name["winning"] + by_name["speed"] > 2 * by_name["puzzles"]
