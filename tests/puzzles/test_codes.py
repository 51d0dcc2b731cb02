"""Puzzle codes (``type:difficulty#SEED``): they round-trip, name the same puzzle everywhere,
and any other text is refused in one line."""

from __future__ import annotations

import pytest
from hypothesis import given
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
    c = codes.parse("sliding:hard#6NJC-NK2Y-YB22")
    assert (c.type, c.difficulty) == ("sliding", "hard")
    assert str(c) == "sliding:hard#6NJC-NK2Y-YB22"


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
        ("sliding#6NJC-NK2Y-YB22", "no ':'"),
        ("tetris:hard#6NJC-NK2Y-YB22", "unknown puzzle type 'tetris'"),
        ("sliding:insane#6NJC-NK2Y-YB22", "unknown difficulty 'insane'"),
        ("sliding:hard#6NJC-NK2Y-YB23", "wrong check symbol"),
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
