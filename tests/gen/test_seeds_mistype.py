"""A mistyped seed code is refused, naming the mistake, and never becomes another world.

Every single-symbol deletion, insertion and substitution of a valid code is tried, as shown
(grouped in fours) and as one run of symbols; free text keeps working as a text seed. The one
gap the seeds module documents (a run of letters with no digit left) is tested as such.
"""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import seeds

seed_values = st.integers(min_value=0, max_value=(1 << seeds.SEED_BITS) - 1)
ORDINALS = ["first", "second", "third", "fourth"]


def refusal(text: str) -> str:
    """The message ``seeds.parse`` refuses ``text`` with (failing the test if it accepts it)."""
    with pytest.raises(seeds.SeedCodeError) as err:
        seeds.parse(text)
    message = str(err.value)
    assert "\n" not in message and message.isprintable()
    return message


def caught(typed: str) -> bool:
    """Whether a mistyped code must be caught: grouped as shown, or with a digit left."""
    return "-" in typed or any(c.isdigit() for c in typed)


def symbol_positions(code: str) -> list[int]:
    """The indices of the symbols (not the hyphens) in a code as shown."""
    return [i for i, c in enumerate(code) if c != "-"]


@settings(max_examples=40, deadline=None)
@given(seed_values, st.booleans())
def test_every_deleted_symbol_is_refused_as_missing(seed, grouped):
    code = seeds.encode(seed) if grouped else seeds.encode(seed).replace("-", "")
    for n, i in enumerate(symbol_positions(code)):
        typed = code[:i] + code[i + 1 :]
        if not caught(typed):
            # no hyphen, no digit: read as text (the documented gap), unless it still looks
            # like a code (twelve code letters, say the generator dropped from "FZZZZZZZZZAD"),
            # which is refused, never another world
            try:
                assert seeds.parse(typed) == seeds.text_seed(typed)
            except seeds.SeedCodeError as err:
                assert "one symbol is missing" in str(err) or "old form" in str(err), err
            continue
        message = refusal(typed)
        assert "one symbol is missing" in message and "'!'" in message
        if grouped:  # the group the symbol was taken from is named (the generator is the first)
            assert f"in the {ORDINALS[0 if n == 0 else 1 + (n - 1) // 4]} group" in message
        assert seeds.parse(typed + "!") == seeds.text_seed(typed + "!")  # the way out


@settings(max_examples=25, deadline=None)
@given(seed_values, st.booleans())
def test_every_inserted_symbol_is_refused_as_one_too_many(seed, grouped):
    code = seeds.encode(seed) if grouped else seeds.encode(seed).replace("-", "")
    plain = code.replace("-", "")
    for i in range(len(code) + 1):
        for symbol in seeds.ALPHABET:
            typed = code[:i] + symbol + code[i:]
            if not caught(typed):
                continue  # the documented gap
            message = refusal(typed)
            assert "one symbol too many" in message
            named = re.search(r"without symbol (\d+) \('(.)'\)", message)
            if named:  # the symbol the message points at is one whose removal gives the code
                k = int(named.group(1)) - 1
                typed_plain = typed.replace("-", "")
                assert typed_plain[k] == named.group(2)
                assert typed_plain[:k] + typed_plain[k + 1 :] == plain


@settings(max_examples=40, deadline=None)
@given(seed_values, st.booleans())
def test_every_substituted_symbol_is_refused_by_the_check(seed, grouped):
    code = seeds.encode(seed) if grouped else seeds.encode(seed).replace("-", "")
    for i in symbol_positions(code):
        for symbol in seeds.ALPHABET:
            if symbol == code[i]:
                continue
            message = refusal(code[:i] + symbol + code[i + 1 :])
            assert "wrong check symbol" in message and "mistyped" in message


@settings(max_examples=40, deadline=None)
@given(seed_values)
def test_a_u_for_any_symbol_is_named(seed):
    code = seeds.encode(seed)
    for n, i in enumerate(symbol_positions(code)):
        message = refusal(code[:i] + "u" + code[i + 1 :])
        assert f"symbol {n + 1} ('U') is never in a code" in message


@given(seed_values, st.integers(2, 3), st.data())
def test_a_few_symbols_missing_or_too_many_are_counted(seed, count, data):
    plain = seeds.encode(seed).replace("-", "")
    cut = data.draw(st.integers(0, len(plain) - count))

    def grouped(symbols: str) -> str:  # as codes are shown (the generator, then fours)
        rest = symbols[1:]
        return "-".join([symbols[0]] + [rest[i : i + 4] for i in range(0, len(rest), 4)])

    message = refusal(grouped(plain[:cut] + plain[cut + count :]))
    assert f"{['two', 'three'][count - 2]} symbols are missing" in message
    extra = data.draw(st.text(alphabet=seeds.ALPHABET, min_size=count, max_size=count))
    message = refusal(grouped(plain[:cut] + extra + plain[cut:]))
    assert f"{['two', 'three'][count - 2]} symbols too many" in message


@given(st.text(alphabet=seeds.ALPHABET + "oilOIL- ", max_size=20))
def test_text_shaped_like_a_code_is_never_a_text_seed(text):
    """Either it is a valid code (and then its own seed), or it is refused; never hashed."""
    if not seeds.looks_like_code(text):
        return
    try:
        value = seeds.parse(text)
    except seeds.SeedCodeError:
        return
    symbols = text.upper().replace("-", "").replace(" ", "")
    assert len(symbols) == seeds.CODE_SYMBOLS
    assert seeds.encode(value).replace("-", "") == (
        symbols.replace("O", "0").replace("I", "1").replace("L", "1")
    )


def test_the_issue_s_code_with_a_missing_symbol_is_refused():
    """An old-form code keeps its precise message for a single mistake, and typed right it is
    refused as old (it names no generator), never played."""
    message = refusal("N65Q-QBJ0-23P")
    assert message.startswith("seed code N65Q-QBJ0-23P: one symbol is missing in the third group")
    for typed in ("N65Q-QBJ0-23PV", "n65q qbj0 23pv", "N65QQBJ023PV"):
        with pytest.raises(seeds.OtherGeneratorError, match="old form, made by generator"):
            seeds.parse(typed)


@pytest.mark.parametrize(
    "text",
    [
        "dragon",
        "my world",
        "12345678",
        "the dark tower!",
        "hello world",
        "roguelike",
        "permadeath",
        "a" * 16,
        "Ünïcode kéep",
    ],
)
def test_free_text_stays_free_text(text):
    assert not seeds.looks_like_code(text)
    assert seeds.parse(text) == seeds.text_seed(text)


@given(
    st.text(alphabet=seeds.ALPHABET + "oilOIL- uU", max_size=20),
    st.sampled_from("!#?.,_'é€"),
    st.text(alphabet=seeds.ALPHABET + "oilOIL- uU", max_size=20),
)
def test_text_with_a_character_codes_never_use_is_free(before, other, after):
    """The way out the messages give: a character outside the code's alphabet."""
    text = before + other + after
    assert not seeds.looks_like_code(text)
    assert seeds.parse(text) == seeds.text_seed(text)


def test_decode_refuses_free_text_and_mistakes_alike():
    with pytest.raises(seeds.SeedCodeError, match="'dragon' is not a seed code"):
        seeds.decode("dragon")
    with pytest.raises(seeds.SeedCodeError, match="one symbol is missing"):
        seeds.decode("N65Q-QBJ0-23P")


def test_the_documented_gap_is_only_a_dropped_generator_in_spaced_words():
    """A code always has a digit (its generator): only with that digit gone, and typed as a
    phrase of spaced words that each have a vowel, is a mistake read as text."""
    letters = seeds.ALPHABET[10:]

    def seed_of(symbols: str) -> int:
        return int("".join(f"{seeds.ALPHABET.index(c):05b}" for c in symbols), 2)

    # ZZAZ-ZEZZ-YZ??: the first last symbol whose check (this generator's) is a letter too
    seed = next(
        seed_of("ZZAZZEZZYZ" + c)
        for c in letters
        if seeds.encode(seed_of("ZZAZZEZZYZ" + c))[-1] in letters
    )
    code = seeds.encode(seed)  # its only digit is the generator
    assert not any(ch.isdigit() for ch in code[1:]) and code[-1] in letters
    assert "missing" in refusal(code[1:])  # "-ZZAZ-…": the hyphen is a code's
    assert "missing" in refusal(code[2:].replace("-", ""))  # twelve in a run
    spaced = code[2:].replace("-", " ")
    assert seeds.parse(spaced) == seeds.text_seed(spaced)
