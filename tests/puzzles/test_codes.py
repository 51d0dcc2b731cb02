"""Puzzle codes (``type:difficulty#SEED``): they round-trip, name the same puzzle everywhere,
are refused by a game of another generator, and any other text is refused in one line.
Descriptive codes (``type:difficulty:board``) rebuild the same puzzle and refuse garbage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import puzzles, seeds
from roguelike.puzzles import codes
from roguelike.puzzles.codes import PuzzleCode, PuzzleCodeError

any_seed = st.integers(0, (1 << seeds.SEED_BITS) - 1)


@given(
    type_name=st.sampled_from(puzzles.TYPES),
    difficulty=st.sampled_from(puzzles.DIFFICULTIES),
    seed=any_seed,
)
def test_a_code_parses_back_to_what_it_names(type_name, difficulty, seed):
    text = codes.encode(type_name, difficulty, seed)
    assert text == f"{type_name}:{difficulty}#{seeds.encode(seed)}"
    assert codes.parse(text) == PuzzleCode(type_name, difficulty, seed)
    # spaces around it and the letters' case are forgiven, as in seed codes
    assert codes.parse(f"  {text.upper()} ") == PuzzleCode(type_name, difficulty, seed)


def test_the_example_code_of_the_docs_parses():
    c = codes.parse(codes.EXAMPLE)
    assert (c.type, c.difficulty) == ("sliding", "hard")
    assert str(c) == codes.EXAMPLE
    assert c.stored == "sliding:hard#6NJC-NK2Y-YB22"  # as the scores file keeps it
    assert codes.parse_stored(c.stored) == c


def test_an_old_form_puzzle_code_is_refused_as_old():
    with pytest.raises(PuzzleCodeError) as info:
        codes.parse("sliding:hard#6NJC-NK2Y-YB22")
    message = str(info.value)
    assert "old form, made by generator" in message and "\n" not in message
    assert "descriptive code" in message


@settings(max_examples=50)
@given(
    type_name=st.sampled_from(puzzles.TYPES),
    seed=any_seed,
    made_by=st.integers(1, 31).map(str),
    game=st.integers(1, 31).map(str),
)
def test_no_puzzle_code_of_one_generator_is_played_by_another(type_name, seed, made_by, game):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(seeds, "GENERATOR_VERSION", made_by)
        text = codes.encode(type_name, "easy", seed)
        mp.setattr(seeds, "GENERATOR_VERSION", game)
        if made_by == game:
            assert codes.parse(text) == PuzzleCode(type_name, "easy", seed)
            return
        with pytest.raises(PuzzleCodeError) as info:
            codes.parse(text)
    message = str(info.value)
    assert f"is for generator {made_by}; this game makes generator {game} puzzles" in message
    assert "\n" not in message


def test_the_same_code_gives_the_same_puzzle():
    c = codes.parse(codes.encode("stomp", "medium", seeds.parse("dragon")))
    a = puzzles.generate(c.type, c.difficulty, c.seed)
    assert a == puzzles.generate("stomp", "medium", seeds.parse("dragon"))
    assert a.to_json() == puzzles.generate(c.type, c.difficulty, c.seed).to_json()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("sliding:hard", "no '#'"),
        ("sliding:hard#6NJC-NK2Y-YB22", "old form"),
        ("sliding#6NJC-NK2Y-YB22", "no ':'"),
        ("tetris:hard#6NJC-NK2Y-YB22", "unknown puzzle type 'tetris'"),
        ("sliding:insane#6NJC-NK2Y-YB22", "unknown difficulty 'insane'"),
        ("sliding:hard#6-6NJC-NK2Y-YB2B", "wrong check symbol"),
        ("sliding:hard#6NJC-NK2Y-YB2", "one symbol is missing"),
        ("sliding:hard#dragon", "'dragon' is not a seed code"),
        ("sliding:hard#", "is not a seed code"),
        ("sliding:hard#6NJC-NK2Y-YB22#6NJC", "is not a seed code"),
        ("x" * 500, "too long"),
    ],
)
def test_bad_codes_say_what_is_wrong(text, words):
    with pytest.raises(PuzzleCodeError) as info:
        codes.parse(text)
    message = str(info.value)
    assert words in message
    assert "\n" not in message and len(message) < 300
    # a code never takes a text seed: no advice on using the letters as text
    assert "text seed" not in message and "as text" not in message


part = st.sampled_from([*puzzles.TYPES, *puzzles.DIFFICULTIES, "", " ", "x"]) | st.text(max_size=15)
seed_part = any_seed.map(seeds.encode) | st.text(alphabet=seeds.ALPHABET + "-# :", max_size=16)
near_codes = st.builds(lambda t, d, s: f"{t}:{d}#{s}", part, part, seed_part)


@given(st.text(max_size=120) | near_codes)
def test_garbage_is_refused_in_one_line_never_a_traceback(text):
    try:
        c = codes.parse(text)
    except PuzzleCodeError as err:
        assert "\n" not in str(err)
    else:  # what parses names a real puzzle and prints back as the canonical code
        assert c.type in puzzles.TYPES and c.difficulty in puzzles.DIFFICULTIES
        assert codes.parse(str(c)) == c


def test_encode_refuses_what_no_code_can_name():
    with pytest.raises(ValueError, match="unknown puzzle type"):
        codes.encode("tetris", "easy", 1)
    with pytest.raises(ValueError, match="unknown difficulty"):
        codes.encode("jugs", "insane", 1)
    with pytest.raises(ValueError, match="outside"):
        codes.encode("jugs", "easy", 1 << seeds.SEED_BITS)


# --- descriptive codes --------------------------------------------------------------------

#: a few puzzles of every type and level, made once (generation is the costly part)
SAMPLES = [
    puzzles.generate(t, d, seed)
    for t in puzzles.TYPES
    for d in ("easy", "very-hard")
    for seed in (1, 42)
]


@pytest.mark.parametrize("p", SAMPLES, ids=lambda p: f"{p.type_name}-{p.difficulty}")
def test_a_descriptive_code_rebuilds_the_same_puzzle(p):
    text = codes.describe(p)
    assert text.startswith(f"{p.type_name}:{p.difficulty}:") and "\n" not in text
    got = codes.build(text)
    assert got.code == text  # canonical: it round-trips
    assert got.puzzle.initial() == p.initial() and got.puzzle.par == p.par
    assert got.puzzle.is_solved(got.puzzle.initial()) == p.is_solved(p.initial())
    assert codes.read(text).code == text  # the reader of either form takes it
    # and it does not depend on the generator: a game of another one rebuilds it the same
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(seeds, "GENERATOR_VERSION", "9")
        assert codes.build(text).puzzle.initial() == p.initial()


def test_the_compact_boards_read_as_the_docs_say():
    jugs = codes.build("jugs:easy:10,9,3/9,1,0").puzzle
    assert (jugs.capacities, jugs.par) == ((10, 9, 3), 4)
    assert codes.build("sliding:easy:3/4,1,5,0,3,2,7,8,6").puzzle.par == 9
    anyjug = codes.build("jugs:easy:7,3,2/any6")
    assert anyjug.code == "jugs:easy:7,3,2/any6" and anyjug.puzzle.par == 3
    assert codes.build("stomp:easy:3/#..-.##-.#./...-...-...").puzzle.par == 2


board_text = st.text(alphabet='0123456789,/-.#x{}[]":abc ', max_size=60)
descriptive = st.builds(
    lambda t, d, b: f"{t}:{d}:{b}",
    st.sampled_from([*puzzles.TYPES, "chess", ""]),
    st.sampled_from([*puzzles.DIFFICULTIES, "x"]),
    board_text | st.text(max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(descriptive | st.text(max_size=80))
def test_descriptive_garbage_is_refused_in_one_line(text):
    try:
        got = codes.build(text)
    except PuzzleCodeError as err:
        message = str(err)
        assert "\n" not in message and len(message) < 400 and message.isprintable()
    else:  # what builds is a real puzzle, and its canonical code builds the same one
        again = codes.build(got.code)
        assert again.code == got.code and again.puzzle.initial() == got.puzzle.initial()


def test_hostile_boards_are_refused_before_any_work():
    for text, words in [
        ("jugs:easy:" + "9" * 3000, "too long"),
        ("ball:easy:" + "[" * 50 + "]" * 50, "nests at most"),
        ('ball:easy:{"config":{"rows":NaN}}', "JSON"),
        ("jugs:easy:10,9,3/9,1,0\x00", "printable ASCII"),
        ("jugs:easy:99999,1/1,0", "whole numbers"),
        ("sliding:easy:3/0,1,2", "bad board in the sliding code"),
        ("tetris:easy:1/2", "unknown puzzle type"),
    ]:
        with pytest.raises(PuzzleCodeError, match=words):
            codes.build(text)


@settings(max_examples=10, deadline=None)
@given(type_name=st.sampled_from(puzzles.TYPES), seed=any_seed)
def test_no_single_mistake_in_a_puzzle_code_s_seed_is_played(type_name, seed):
    """A symbol of the seed dropped, added, changed, or two swapped: refused, never a puzzle."""
    code = codes.encode(type_name, "easy", seed)
    head, _, shown = code.partition("#")
    run = shown.replace("-", "")
    typed = []
    for i, c in enumerate(run):
        typed.append(run[:i] + run[i + 1 :])
        typed += [run[:i] + s + run[i:] for s in seeds.ALPHABET]
        typed += [run[:i] + s + run[i + 1 :] for s in seeds.ALPHABET if s != c]
        typed += [
            run[:i] + run[j] + run[i + 1 : j] + c + run[j + 1 :]
            for j in range(i + 1, len(run))
            if run[j] != c
        ]
    for mistake in typed:
        with pytest.raises(PuzzleCodeError):
            codes.parse(f"{head}#{mistake}")
