"""Room templates: the shipped set, variants, resolving, and the loader's validation."""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import ndimage

from roguelike import tiles
from roguelike.gen import templates
from roguelike.gen.templates import (
    PROBABILISTIC,
    ROOMS_DIR,
    SPOTS,
    Template,
    TemplateError,
    for_tag,
    load_templates,
    parse_template,
)

ALL = load_templates()
VARIANTS = [v for t in ALL for v in t.variants()]
LEGEND = "".join(sorted(set(templates.FIXED) | set(SPOTS) | set(PROBABILISTIC) | {"D"}))
SEEDS = range(12)


def required_cells(t: Template) -> list[tuple[int, int]]:
    """(x, y) of every socket's inward cell and every spot."""
    return [s.inward for s in t.sockets] + [c for cells in t.spots.values() for c in cells]


def one_component(walkable: np.ndarray, cells: list[tuple[int, int]]) -> bool:
    labels, _ = ndimage.label(walkable)  # default structure: 4-connectivity
    return len({labels[y, x] for x, y in cells}) == 1 and all(labels[y, x] for x, y in cells)


def room_text(t: Template, name: str | None = None, tags: str | None = None) -> str:
    return (
        f"name: {name or t.name}\ntags: {tags or ' '.join(sorted(t.tags))}\n"
        f"depth: {t.depth[0]}-{t.depth[1]}\nweight: {t.weight}\n---\n" + "\n".join(t.grid) + "\n"
    )


# --- the shipped set ---------------------------------------------------------------------------


def test_every_file_loads_once_sorted_and_cached():
    files = sorted(ROOMS_DIR.rglob("*.room"))
    assert len(ALL) == len(files) >= 32
    assert [t.name for t in ALL] == sorted(p.stem for p in files)
    assert len({t.name for t in ALL}) == len(ALL)
    assert load_templates() is ALL
    assert ROOMS_DIR.parent == Path(templates.__file__).parent  # inside the package: package data


@pytest.mark.parametrize(
    ("tag", "least"),
    [("start", 2), ("finish", 2), ("key", 3), ("puzzle", 2), ("treasure", 2), ("any", 20)],
)
def test_tag_minimums(tag, least):
    chosen = for_tag(tag)
    assert len(chosen) >= least
    assert all(tag in t.tags for t in chosen)
    assert chosen == tuple(t for t in ALL if tag in t.tags)


def test_for_tag_rejects_unknown_tags():
    with pytest.raises(ValueError, match="unknown tag"):
        for_tag("boss")


def test_spots_match_tags():
    for t in for_tag("start"):
        assert len(t.spots["@"]) == 1 and t.depth[0] == 0
    for t in for_tag("finish"):
        assert len(t.spots[">"]) == 1
    for t in for_tag("key") + for_tag("puzzle"):
        assert len(t.spots["k"]) == 1
    for t in for_tag("treasure"):
        assert t.spots["$"]
    for t in for_tag("puzzle"):  # calm: symmetric under the left-right mirror, no monsters
        assert t.grid == tuple(row[::-1] for row in t.grid) and not t.spots["m"]


def test_shapes_are_varied():
    outlines = {tuple(row.replace("D", "#") for row in t.grid) for t in ALL}
    non_rect = {grid for grid in outlines if " " in "".join(grid)}
    assert len(non_rect) >= 5
    for t in ALL:
        assert min(t.width, t.height) >= 5 and t.width <= 17 and t.height <= 13, t.name


def test_sockets_are_spread():
    for t in ALL:
        sides = Counter(s.side for s in t.sockets)
        if t.tags & {"any", "start", "puzzle"}:
            assert len(t.sockets) >= 4 and len(sides) >= 3, t.name
        else:
            assert len(t.sockets) >= 2, t.name


def test_ordinary_rooms_have_monsters_and_some_randomness():
    ordinary = for_tag("any")
    assert sum(bool(t.spots["m"]) for t in ordinary) >= len(ordinary) * 3 // 4
    assert sum(bool(set("".join(t.grid)) & PROBABILISTIC.keys()) for t in ordinary) >= 15


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_variant_is_valid_and_connected_in_the_worst_case(variant):
    base = variant.name.split("/")[0]
    again = parse_template(room_text(variant, name=base), f"{base}.room")
    assert again.grid == variant.grid
    assert one_component(variant.worst_walkable(), required_cells(variant))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_resolved_outcome_is_one_connected_room(variant):
    chars = np.array([list(row) for row in variant.grid])
    for seed in SEEDS:
        out = variant.resolve(np.random.default_rng(seed))
        assert out.dtype == np.uint8 and out.shape == (variant.height, variant.width)
        assert (out[chars == " "] == tiles.VOID).all() and (out[chars == "D"] == tiles.WALL).all()
        assert (out[np.isin(chars, list(SPOTS))] == tiles.FLOOR).all()
        walkable = tiles.WALKABLE[out]
        assert one_component(walkable, required_cells(variant))
        # stronger: no walkable pocket anywhere, whatever the dice say
        assert ndimage.label(walkable)[1] == 1
        # and the worst case really is a lower bound
        assert not (variant.worst_walkable() & ~walkable).any()


# --- variants ----------------------------------------------------------------------------------

ASYMMETRIC = """\
name: lopsided
tags: treasure
---
##D###
#...$#
D....#
#....D
######
"""


def test_variants_of_an_asymmetric_grid():
    t = parse_template(ASYMMETRIC, "lopsided.room")
    assert [(s.x, s.y, s.side) for s in t.sockets] == [(2, 0, "N"), (0, 2, "W"), (5, 3, "E")]
    vs = {v.name: v for v in t.variants()}
    assert list(vs) == [
        "lopsided",
        "lopsided/r90",
        "lopsided/r180",
        "lopsided/r270",
        "lopsided/m",
        "lopsided/r90m",
        "lopsided/r180m",
        "lopsided/r270m",
    ]
    assert t.variants()[0] == t
    # by hand: a clockwise quarter turn takes (x, y) to (h-1-y, x) and N→E, W→N, E→S
    r90 = vs["lopsided/r90"]
    # row j of the image is column j of the original read bottom to top
    assert r90.grid == ("##D##", "#...#", "#...D", "#...#", "#..$#", "#D###")
    assert {(s.x, s.y, s.side) for s in r90.sockets} == {(4, 2, "E"), (2, 0, "N"), (1, 5, "S")}
    assert r90.spots["$"] == ((3, 4),)
    # the mirror swaps E and W and keeps N
    m = vs["lopsided/m"]
    assert {(s.x, s.y, s.side) for s in m.sockets} == {(3, 0, "N"), (5, 2, "E"), (0, 3, "W")}
    assert {(s.x, s.y, s.side) for s in vs["lopsided/r180"].sockets} == {
        (3, 4, "S"),
        (5, 2, "E"),
        (0, 1, "W"),
    }
    # every variant: each socket's side is the one its edge says, and the counts agree
    turn = {"N": "E", "E": "S", "S": "W", "W": "N"}
    flip = {"N": "N", "S": "S", "E": "W", "W": "E"}
    for name, v in vs.items():
        quarter = int(re.search(r"r(\d+)", name)[1]) // 90 if "/r" in name else 0
        expected = Counter(s.side for s in t.sockets)
        for _ in range(quarter):
            expected = Counter({turn[k]: n for k, n in expected.items()})
        if name.endswith("m"):
            expected = Counter({flip[k]: n for k, n in expected.items()})
        assert Counter(s.side for s in v.sockets) == expected, name
        for s in v.sockets:
            edge = {"N": s.y == 0, "S": s.y == v.height - 1, "W": s.x == 0, "E": s.x == v.width - 1}
            assert edge[s.side], (name, s)
            assert s.outward == (s.x + s.x - s.inward[0], s.y + s.y - s.inward[1])


def test_identical_images_are_deduplicated():
    square = parse_template(
        "name: sq\ntags: any\n---\n##D##\n#...#\nD...D\n#...#\n##D##\n", "sq.room"
    )
    assert [v.name for v in square.variants()] == ["sq"]
    oblong = parse_template(
        "name: ob\ntags: any\n---\n###D###\n#.....#\nD.....D\n#.....#\n###D###\n", "ob.room"
    )
    assert [v.name for v in oblong.variants()] == ["ob", "ob/r90"]
    for t in ALL:
        grids = [v.grid for v in t.variants()]
        assert len(grids) == len(set(grids)) and 1 <= len(grids) <= 8


# --- resolving ---------------------------------------------------------------------------------


def test_resolve_is_deterministic_and_varies_with_the_seed():
    t = next(t for t in ALL if t.name == "ruined-hall")
    first = t.resolve(np.random.default_rng(7))
    assert np.array_equal(first, t.resolve(np.random.default_rng(7)))
    others = [t.resolve(np.random.default_rng(s)) for s in range(8)]
    assert any(not np.array_equal(first, o) for o in others)


def test_resolve_draws_one_choice_per_glyph_in_sorted_order():
    t = next(t for t in ALL if t.name == "ruined-hall")
    chars = np.array([list(row) for row in t.grid])
    rng = np.random.default_rng(3)
    expected = {}
    for glyph in sorted(set(chars.ravel()) & PROBABILISTIC.keys()):
        outcomes = PROBABILISTIC[glyph]
        p = np.array([w for _, w in outcomes], dtype=float)
        expected[glyph] = rng.choice(
            np.array([o for o, _ in outcomes], dtype=np.uint8),
            size=int((chars == glyph).sum()),
            p=p / p.sum(),
        )
    out = t.resolve(np.random.default_rng(3))
    for glyph, drawn in expected.items():
        assert np.array_equal(out[chars == glyph], drawn)


def test_probability_tables_are_sane():
    for glyph, outcomes in PROBABILISTIC.items():
        assert sum(w for _, w in outcomes) == 100, glyph
        assert all(0 <= tile < len(tiles.TILES) and w > 0 for tile, w in outcomes)
        assert templates.__doc__ and f"``{glyph}``" in templates.__doc__


# --- rejecting bad templates -------------------------------------------------------------------

GOOD = """\
# a comment
name: bad
tags: start   # trailing comment
depth: 0-5
weight: 2
---
##D##
#.@.#
D...D
#.m.#
##D##
"""


def test_good_base_parses():
    t = parse_template(GOOD, "rooms/bad.room")
    assert (t.name, t.tags, t.depth, t.weight) == ("bad", frozenset({"start"}), (0, 5), 2)
    assert t.spots["@"] == ((2, 1),) and t.spots["m"] == ((2, 3),) and t.spots["$"] == ()


def test_ragged_rows_and_whitespace():
    text = "name: rag\ntags: any\n---\n\n ##D##   \n##...##\nD.....D\n##...##  \n ##D##\n\n"
    t = parse_template(text, "rag.room")
    assert t.grid[0] == " ##D## " and t.width == 7 and t.height == 5
    assert t.depth == (0, 99) and t.weight == 1


def bad(old: str, new: str) -> str:
    """GOOD with one edit (GOOD's grid starts on line 7)."""
    assert old in GOOD
    return GOOD.replace(old, new, 1)


def room(grid: str, tags: str = "start") -> str:
    """A minimal file around ``grid``; its grid starts on line 4."""
    return f"name: bad\ntags: {tags}\n---\n{grid}\n"


SPLIT = "##D####\n#@.#..#\nD..#..D\n#..#..#\n####D##"
POCKET = "##D###\n#@...#\nD....D\n#.##.#\n#.#X##\n#.####\n#D####"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (bad("#.m.#", "#.X.#"), 10, "unknown glyph 'X' in column 3"),
        (bad("##D##\n#.@", "D####\n#.@"), 7, "socket in column 1 sits in a corner"),
        (bad("#.m.#", "#.D.#"), 10, "socket in column 3 is not on the bounding-box edge"),
        (bad("#.@.#", "#@&.#"), 7, "socket in column 3 has no walkable cell just inside it"),
        (room(SPLIT), 6, "the cell inside the socket in column 7 is cut off .* worst case"),
        (room(SPLIT.replace("#@.#", "#@.2").replace("#..#", "#..2")), 6, "cut off"),
        (room(POCKET.replace("X", ".")), 8, "walkable '.' in column 4 is cut off"),
        (room(POCKET.replace("X", "2")), 8, "'2' in column 4 may open a pocket"),
        (room(POCKET.replace("X", "5")), 8, "'5' in column 4 may open a pocket"),
        (bad("#.@.#", "#...#"), 3, "a start template needs exactly 1 '@', has 0"),
        (bad("#.m.#", "#.@.#"), 3, "a start template needs exactly 1 '@', has 2"),
        (bad("tags: start", "tags: start key"), 3, "a key template needs exactly 1 'k', has 0"),
        (room("##D##\n#...#\nD...D\n##D##", "treasure"), 2, "at least 1 '\\$', has 0"),
        (bad("tags: start", "tags: any"), 8, "'@' in column 3 needs one of the tags start"),
        (bad("depth: 0-5", "depth: 5-2"), 4, "bad depth '5-2'"),
        (bad("depth: 0-5", "depth: deep"), 4, "bad depth 'deep'"),
        (bad("depth: 0-5", "depth: 2-5"), 4, "depth range must hold 0"),
        (bad("weight: 2", "weight: 0"), 5, "bad weight '0'"),
        (bad("weight: 2", "weight: two"), 5, "bad weight 'two'"),
        (bad("tags: start", "tags: start boss"), 3, "bad tag 'boss'"),
        (bad("tags: start", "tags:"), 3, "no tags"),
        (bad("name: bad", "name: good"), 2, "name 'good' differs from the file name 'bad.room'"),
        (bad("name: bad", "name: Bad_Room"), 2, "bad name"),
        (bad("name: bad\n", ""), 5, "missing header 'name'"),
        (bad("weight: 2", "weight: 2\nweight: 3"), 6, "duplicate header 'weight'"),
        (bad("weight: 2", "colour: red"), 5, "unknown header 'colour'"),
        (bad("weight: 2", "just words"), 5, "expected 'key: value'"),
        (GOOD.split("---")[0], 5, "missing the '---'"),
        (GOOD.split("---")[0] + "---\n\n", 6, "empty grid"),
        (room("#####\n#@..#\n#####"), 4, "no socket"),
        (room("#D#"), 4, "a 3x1 grid is smaller than 3x3"),
        (room("#\nD\n#"), 4, "a 1x3 grid is smaller than 3x3"),
        (bad("#.m.#", ".#m.#"), 10, "'.' in column 1 is not enclosed by the wall ring"),
        (bad("##D##\n#.@.#", "  D  \n #@# "), 8, "'@' in column 3 is not enclosed"),
        (room(" ##D##\n #@..D\n ##D##"), 4, "first column is empty"),
    ],
)
def test_loader_rejects(text, line, reason):
    with pytest.raises(TemplateError) as caught:
        parse_template(text, "rooms/bad.room")
    message = str(caught.value)
    assert message.startswith(f"rooms/bad.room:{line}: "), message
    assert re.search(reason, message), message


def test_probabilistic_wall_across_the_room_is_the_003_trap():
    text = "name: trap\ntags: any\n---\n##D##\n#...#\n#222#\n#...#\n##D##\n"
    with pytest.raises(TemplateError, match=r"trap.room:7: .*cut off .*worst case"):
        parse_template(text, "trap.room")
    # the same room is fine when the outcome can only be walkable
    assert parse_template(text.replace("222", "161"), "trap.room").sockets


def test_load_folder_errors(tmp_path):
    with pytest.raises(TemplateError, match="no .room templates"):
        load_templates(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    room = "name: twin\ntags: any\n---\n##D##\n#...#\nD...D\n#...#\n##D##\n"
    (tmp_path / "a" / "twin.room").write_text(room)
    assert [t.name for t in load_templates(tmp_path)] == ["twin"]
    (tmp_path / "b" / "twin.room").write_text("# the same name again\n" + room)
    with pytest.raises(TemplateError, match=r"b/twin\.room:2: duplicate name 'twin'"):
        load_templates(tmp_path)
    (tmp_path / "b" / "twin.room").unlink()
    (tmp_path / "b" / "odd.room").write_bytes(b"name: odd\xff\n")
    with pytest.raises(TemplateError, match=r"odd\.room:1: not UTF-8"):
        load_templates(tmp_path)


# --- robustness --------------------------------------------------------------------------------

HEADER_BITS = st.sampled_from(
    [
        "name: junk",
        "name: other",
        "tags: any",
        "tags: start",
        "tags: treasure key",
        "tags: x",
        "depth: 1-3",
        "depth: 3-1",
        "depth: -1",
        "weight: 0",
        "weight: 5",
        "# note",
        "",
        "junk:",
        "---",
    ]
)
GRID_ROW = st.text(alphabet=st.sampled_from("#####....DD" + LEGEND + "\tX\u00e9"), max_size=9)


@given(st.text(max_size=200))
def test_random_text_parses_or_raises_template_error(text):
    with contextlib.suppress(TemplateError):
        parse_template(text, "junk.room")


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(st.booleans(), st.lists(HEADER_BITS, max_size=6), st.lists(GRID_ROW, max_size=9))
def test_random_rooms_parse_or_raise_and_parsed_ones_are_sound(plausible, header, rows):
    if plausible:  # a valid header, so that the grid rules get exercised
        header = ["name: junk", "tags: any"]
    text = "\n".join([*header, "---", *rows])
    try:
        t = parse_template(text, "junk.room")
    except TemplateError:
        return
    for v in t.variants():
        for seed in range(3):
            walkable = tiles.WALKABLE[v.resolve(np.random.default_rng(seed))]
            assert one_component(walkable, required_cells(v))


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=200)
@given(
    st.sampled_from(ALL),
    st.lists(
        st.tuples(st.integers(0, 16), st.integers(0, 12), st.sampled_from(LEGEND)),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_templates_parse_or_raise_and_parsed_ones_are_sound(template, edits):
    grid = [list(row) for row in template.grid]
    for x, y, glyph in edits:
        if y < len(grid) and x < len(grid[y]):
            grid[y][x] = glyph
    mutated = Template(
        template.name,
        template.tags,
        template.depth,
        template.weight,
        tuple("".join(row) for row in grid),
    )
    try:
        t = parse_template(room_text(mutated), f"{template.name}.room")
    except TemplateError:
        return
    for seed in range(4):
        walkable = tiles.WALKABLE[t.resolve(np.random.default_rng(seed))]
        assert one_component(walkable, required_cells(t))
        assert ndimage.label(walkable)[1] == 1
