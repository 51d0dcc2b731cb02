"""Seed codes: round trips, typo detection, text seeds, named streams."""

import itertools
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.version import GENERATOR_VERSION

seed_values = st.integers(min_value=0, max_value=(1 << seeds.SEED_BITS) - 1)


@given(seed_values)
def test_code_round_trip(seed):
    code = seeds.encode(seed)
    assert len(code) == 16 and code[1] == code[6] == code[11] == "-"
    assert code[0] == GENERATOR_VERSION  # the generator, readable
    assert seeds.decode(code) == seed
    assert seeds.parse(code) == seed


@given(seed_values)
def test_codes_forgive_case_separators_and_lookalikes(seed):
    code = seeds.encode(seed)
    plain = code.replace("-", "")
    assert seeds.parse(plain.lower()) == seed
    assert seeds.parse(f"  {plain[:6]} {plain[6:]} ") == seed
    assert seeds.parse(code.replace("0", "O").replace("1", "I")) == seed
    assert seeds.parse(code.replace("1", "l")) == seed


@given(seed_values, st.integers(0, seeds.CODE_SYMBOLS - 1), st.integers(1, 31))
def test_every_single_mistyped_symbol_is_caught(seed, position, shift):
    plain = list(seeds.encode(seed).replace("-", ""))
    plain[position] = seeds.ALPHABET[(seeds.ALPHABET.index(plain[position]) + shift) % 32]
    with pytest.raises(seeds.SeedCodeError, match="mistyped"):
        seeds.decode("".join(plain))


@given(seed_values, st.data())
def test_every_swap_of_two_different_symbols_is_caught(seed, data):
    """The GF(32) check weighs each place differently: any two symbols swapped, neighbours or
    not (the old form's Luhn check missed a neighbouring 0 and Z), is a wrong check symbol."""
    plain = list(seeds.encode(seed).replace("-", ""))
    i, j = data.draw(st.lists(st.integers(0, len(plain) - 1), min_size=2, max_size=2, unique=True))
    if plain[i] == plain[j]:
        return
    plain[i], plain[j] = plain[j], plain[i]
    with pytest.raises(seeds.SeedCodeError, match="mistyped or two are swapped"):
        seeds.decode("".join(plain))


def test_the_old_form_missed_a_zero_z_swap_the_code_catches():
    """0000-0000-ZFHF with its 0 and Z swapped was the valid old code of another seed."""
    assert seeds.stored(32241) == "0000-0000-ZFHF"
    assert seeds.read_stored("0000-000Z-0FHF") == 1016305  # the Luhn check cannot tell
    code = seeds.encode(32241).replace("-", "")
    at = code.index("0Z")
    with pytest.raises(seeds.SeedCodeError, match="wrong check symbol"):
        seeds.decode(code[:at] + "Z0" + code[at + 2 :])


def test_mistyped_code_error_names_the_problem():
    code = seeds.encode(12345)
    bad = code[:-1] + ("0" if code[-1] != "0" else "1")
    with pytest.raises(seeds.SeedCodeError) as err:
        seeds.parse(bad)
    assert "check symbol" in str(err.value) and "\n" not in str(err.value)


@given(st.text(min_size=1).filter(lambda t: t.strip() and not seeds.looks_like_code(t)))
def test_any_other_text_is_a_seed(text):
    value = seeds.parse(text)
    assert 0 <= value < 1 << seeds.SEED_BITS
    assert seeds.parse(text) == value
    assert seeds.normalise(text) == seeds.encode(value)


def test_empty_seed_is_refused():
    with pytest.raises(seeds.SeedCodeError):
        seeds.parse("   ")


def test_text_seed_is_the_same_in_another_process():
    """BLAKE2b, not hash(): a fresh interpreter with another hash seed gives the same value."""
    code = "import roguelike.seeds as s; print(s.text_seed('the dark tower'))"
    values = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": h, "PATH": ""},
        ).stdout
        for h in ("0", "12345")
    }
    assert values == {f"{seeds.text_seed('the dark tower')}\n"}


def test_streams_are_deterministic_and_independent():
    a = seeds.stream(7, 1, "layout").integers(1 << 30, size=8)
    assert (a == seeds.stream(7, 1, "layout").integers(1 << 30, size=8)).all()
    others = [
        seeds.stream(*name).integers(1 << 30, size=8)
        for name in [(8, 1, "layout"), (7, 2, "layout"), (7, 1, "terrain")]
    ]
    for b in others:
        assert not (a == b).all()


def test_solver_seeds_fit_clingo_and_vary_by_attempt():
    values = {seeds.solver_seed(5, 1, "topology", attempt) for attempt in range(20)}
    assert len(values) == 20 and all(0 <= v < 2**31 for v in values)


def test_random_seeds_encode():
    for _ in range(20):
        assert seeds.decode(seeds.encode(seeds.random_seed())) is not None


@pytest.mark.parametrize("a,b", list(itertools.combinations(["O", "0", "o"], 2)))
def test_zero_lookalikes_agree(a, b):
    base = seeds.encode(0).replace("-", "")
    assert seeds.parse(base.replace("0", a)) == seeds.parse(base.replace("0", b)) == 0
