"""``roguelike puzzle``: designer tools for the puzzles. ``generate`` prints one (JSON with its
difficulty score under ``"difficulty_score"``, its code under ``"code"`` and its descriptive
code under ``"descriptive_code"``, or a board to read under a title line and both codes),
``solve`` reads one on stdin and prints an optimal solution,
``hint`` reads one on stdin and prints the hint from its state
(:func:`roguelike.puzzles.advise`, within the type's node budget), ``play`` plays one in the
terminal (generated; ``--code`` the puzzle a code of either form names,
:mod:`roguelike.puzzles.codes`' ``type:difficulty#SEED`` or ``type:difficulty:board``;
``--file`` one from a JSON file).

Hand-written input is hostile: a document is read only up to :data:`MAX_INPUT_CHARS` characters
(more is refused before it is parsed), JSON nested too deeply is refused, and each type refuses an
instance beyond its stated size limits before building its state space (see each module's
docstring); every refusal is one line with exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from roguelike import puzzles, seeds
from roguelike.cli import Fail, Parser
from roguelike.cli.args import parse_seed
from roguelike.gen import formats
from roguelike.puzzles import codes, custom, difficulty
from roguelike.puzzles.base import SOLVE_BUDGET, SearchLimit, check_par

#: Errors beyond the ones every command reports (bad puzzles raise :class:`Fail`).
USER_ERRORS: tuple[type[Exception], ...] = ()
#: The most characters of a puzzle document read (stdin or ``--file``); the largest generated
#: document is a few thousand.
MAX_INPUT_CHARS = 1 << 20


def add_arguments(puzzle: argparse.ArgumentParser) -> None:
    tools = puzzle.add_subparsers(
        dest="puzzle_command",
        metavar="{generate,solve,hint,play}",
        parser_class=Parser,
        required=True,
    )
    gen = tools.add_parser("generate", help="generate one puzzle and print it")
    gen.add_argument("--type", choices=puzzles.TYPES, required=True, help="the puzzle type")
    gen.add_argument("--difficulty", choices=puzzles.DIFFICULTIES, required=True, help="how hard")
    gen.add_argument("--seed", type=parse_seed, required=True, help="a seed code or any text")
    gen.add_argument("--format", choices=["json", "text"], default="json", help="json (default)")
    add_custom_arguments(gen)
    tools.add_parser(
        "solve", help="read a puzzle's JSON on stdin, print an optimal solution from its state"
    )
    tools.add_parser(
        "hint",
        help="read a puzzle's JSON on stdin, print the hint from its state as JSON "
        "(move, moves_left when proven, text, exact)",
    )
    play = tools.add_parser("play", help="play one puzzle in the terminal")
    play.add_argument("--type", choices=puzzles.TYPES, help="the puzzle type (or --code, --file)")
    play.add_argument("--difficulty", choices=puzzles.DIFFICULTIES, help="how hard (easy)")
    play.add_argument(
        "--code",
        help="a puzzle code, type:difficulty#SEED or the descriptive type:difficulty:board "
        "(instead of --type, --difficulty and --seed)",
    )
    play.add_argument("--seed", type=parse_seed, help="a seed code or any text (a random one)")
    play.add_argument(
        "--file", help="play the puzzle in this JSON file (generated or written by hand)"
    )
    play.add_argument("--coins", type=int, default=5, help="hint coins to spend (5)")


def add_custom_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a custom puzzle (:mod:`roguelike.puzzles.custom`): each left out is the
    level's, and all left out is the level's own puzzle."""
    extra = parser.add_argument_group(
        "custom puzzles (sliding, stomp, ball; bounded, see the one-line refusals)"
    )
    extra.add_argument(
        "--size", help="the board, RxC (sliding 3x3 or 4x4, stomp 2x2 to 7x7, ball 4x4 to 5x5)"
    )
    extra.add_argument("--depth", type=int, help="the optimal move count (steps from the goal)")
    extra.add_argument(
        "--goal",
        help="sliding: standard, spiral, snake, reverse, or the tiles row by row "
        "(1-9, A-F, 0 the gap; 123804765)",
    )
    extra.add_argument("--blocked", type=int, default=0, help="ball: blocked cells (0)")
    extra.add_argument("--target", action="store_true", help="ball: a free target cell, no exit")


def custom_options(args: argparse.Namespace) -> custom.Options:
    """The options of ``--size``, ``--depth``, ``--goal``, ``--blocked`` and ``--target``,
    checked for the type and level; :class:`Fail` with one line outside their bounds."""
    size = None if args.size is None else str(args.size).strip()
    goal = None if args.goal is None else str(args.goal).strip()
    items = custom.option_items(size, args.depth, goal, args.blocked, args.target)
    if not items:
        return custom.NONE
    if args.blocked < 0 or (args.depth is not None and args.depth < 0):
        raise Fail("--depth and --blocked are 0 or more")
    try:
        return custom.parse(args.type, ",".join(items), args.difficulty)
    except custom.OptionsError as err:
        raise Fail(str(err)) from None


def puzzle_text(p: Any, s: Any, code: str | None = None, score: float | None = None) -> str:
    """A puzzle in state ``s`` for a person to read: a title line (with the puzzle's ``code``
    and its difficulty score when given), then its board (drawn by the puzzle's own
    ``render_text``)."""
    title = f"{p.type_name} · {p.difficulty} · par {p.par}"
    if score is not None:
        title += f" · score {score:.1f}"
    if code:
        title += f" · {code}"
    return f"{title}\n\n{p.render_text(s)}\n"


def generate_text(args: argparse.Namespace) -> str:
    """The puzzle of ``--type``, ``--difficulty`` and ``--seed``, as JSON or to read."""
    options = custom_options(args)
    try:
        p = custom.generate(args.type, args.difficulty, args.seed, options)
    except puzzles.GenerationError as err:
        raise Fail(str(err)) from None
    code = codes.with_options(
        codes.parse(codes.encode(args.type, args.difficulty, args.seed)), options
    )
    board = codes.describe(p)
    # the difficulty score and the codes beside the instance (keys of their own: the instance's
    # JSON is as ``to_json`` writes it, and ``puzzle solve`` reads the document unchanged)
    score = difficulty.measure(p)
    if args.format == "json":
        extra = {"code": code, "descriptive_code": board, "difficulty_score": score.to_json()}
        return formats.dumps(p.to_json() | extra) + "\n"
    return puzzle_text(p, p.initial(), code, score.score) + f"\non any release: {board}\n"


def load_document(text: str) -> Any:
    """A puzzle document's JSON value; raises :class:`Fail` for anything else."""
    if len(text) > MAX_INPUT_CHARS:
        raise Fail(f"the input is longer than {MAX_INPUT_CHARS} characters: not a puzzle")
    if not text.strip():
        raise Fail("no input: pipe a puzzle's JSON in (roguelike puzzle generate … | …)")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise Fail(f"the input is not JSON: {one_line(err)}") from None


def one_line(err: BaseException) -> str:
    """An error's message on one line, and not too long to read."""
    text = " ".join(str(err).split())
    return text if len(text) <= 200 else text[:199] + "…"


def load_puzzle(doc: Any) -> Any:
    """The puzzle a document describes; raises :class:`Fail` with the reason."""
    try:
        return puzzles.from_json(doc)
    # the cores raise PuzzleFormatError for what they check; a hand-written document can also
    # trip a plain type or value error deeper in, which is still the input's fault
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        OverflowError,
        RecursionError,
    ) as err:
        raise Fail(f"not a puzzle: {one_line(err)}") from None


def solve_text(text: str) -> str:
    """``{"moves": [...]}``: an optimal solution of the puzzle in ``text``, from its state."""
    p, s = read_puzzle(text)
    try:
        plan = p.solve(s, SOLVE_BUDGET)
    except SearchLimit:
        raise Fail(
            f"no shortest plan found within {SOLVE_BUDGET} search nodes: too large to solve here"
        ) from None
    except (ValueError, TypeError, IndexError, OverflowError) as err:
        raise Fail(f"cannot solve this state: {one_line(err)}") from None
    if plan is None:
        raise Fail("this puzzle cannot be solved from its state")
    return formats.dumps({"moves": [p.move_to_json(m) for m in plan]}) + "\n"


def read_puzzle(text: str) -> tuple[Any, Any]:
    """(puzzle, state) of the JSON document in ``text``, its "state" (or the initial state);
    raises :class:`Fail` with one line for anything that is not a valid puzzle."""
    doc = load_document(text)
    p = load_puzzle(doc)
    try:
        s = p.state_from_json(doc["state"]) if "state" in doc else p.initial()
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as err:
        raise Fail(f"not a puzzle: {one_line(err)}") from None
    return p, s


def hint_text(text: str) -> str:
    """The hint from the state of the puzzle in ``text``, as JSON: ``move`` (move JSON, null at
    the goal), ``exact``, ``moves_left`` (only when proven), ``route_len`` (a known route's
    length when not proven), ``text``."""
    p, s = read_puzzle(text)
    try:
        a = puzzles.advise(p, s)
    except puzzles.Unsolvable:
        raise Fail("this puzzle cannot be solved from its state") from None
    except (ValueError, TypeError, IndexError, OverflowError, SearchLimit) as err:
        raise Fail(f"cannot hint from this state: {one_line(err)}") from None
    doc: dict[str, Any] = {
        "move": None if a.move is None else p.move_to_json(a.move),
        "exact": a.exact,
        "text": a.text,
    }
    if a.moves_left is not None:
        doc["moves_left"] = a.moves_left
    if a.route_len is not None:
        doc["route_len"] = a.route_len
    return formats.dumps(doc) + "\n"


def _play_choice(args: argparse.Namespace) -> tuple[str, str, int, custom.Options]:
    """(type, difficulty, seed, options) of ``puzzle play``: from ``--type``, ``--difficulty``
    (easy) and ``--seed`` (a random one), no options; ``--code`` (with a custom puzzle's options
    after a ``/``, or a descriptive code) is read by ``codes.read`` in :func:`play_text`."""
    if args.type is None:
        raise Fail("say which puzzle: --type TYPE (or --code type:difficulty#SEED, or --file)")
    seed = seeds.random_seed() if args.seed is None else args.seed
    return args.type, args.difficulty or "easy", seed, custom.NONE


def printable(text: str) -> str:
    """``text`` with every character a terminal could take as a control replaced by ``?``."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def read_file(path: str) -> str:
    """The text of a puzzle file, read only up to :data:`MAX_INPUT_CHARS` characters. Only a
    regular file is read (a FIFO would make the command wait for ever)."""
    from saves.errors import SaveError
    from saves.files import read_file as read_regular

    try:
        data = read_regular(path, 4 * MAX_INPUT_CHARS)  # UTF-8: at most 4 bytes a character
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Fail(f"{printable(path)} is not UTF-8 text") from None
    except SaveError:
        raise Fail(f"the input is longer than {MAX_INPUT_CHARS} characters: not a puzzle") from None
    except OSError as err:
        raise Fail(f"cannot read {printable(path)}: {err.strerror or 'error'}") from None
    return text


def play_text(args: argparse.Namespace, make_app: Callable[..., Any] | None = None) -> str:
    """Play one puzzle on the puzzle screen (``make_app``: the app class, None: Textual's
    :class:`~screens.puzzle.PuzzleApp`); returns a line saying how it went.

    With ``--file`` the puzzle comes from a JSON document; its par is checked against the
    solver's optimum from the start (a wrong one, or a start that cannot reach the goal, is
    refused in one line), and play starts from the puzzle's start, ``initial()``.
    """
    if args.coins < 0:
        raise Fail(f"--coins must be 0 or more, got {args.coins}")
    if args.file is not None:
        if (args.type, args.difficulty, args.seed, args.code) != (None, None, None, None):
            raise Fail(
                "--file gives the puzzle: it does not go with --type, --difficulty, --seed"
                " or --code"
            )
        p = load_puzzle(load_document(read_file(args.file)))
        try:
            check_par(p)
        except puzzles.PuzzleFormatError as err:
            raise Fail(f"{printable(args.file)}: {one_line(err)}") from None
        what = f"{p.type_name} · {p.difficulty} · {printable(args.file)}"
    elif args.code is not None:
        if args.type is not None or args.difficulty is not None or args.seed is not None:
            raise Fail("--code names the puzzle: leave out --type, --difficulty and --seed")
        try:
            got = codes.read(args.code)
        except (codes.PuzzleCodeError, puzzles.GenerationError) as err:
            raise Fail(str(err)) from None
        p = got.puzzle
        board = codes.is_descriptive(args.code)
        where = got.code if board else "seed " + got.code.partition("#")[2]
        what = f"{p.type_name} · {p.difficulty} · {where}"
    else:
        type_name, difficulty, seed, options = _play_choice(args)
        try:
            p = custom.generate(type_name, difficulty, seed, options)
        except puzzles.GenerationError as err:
            raise Fail(str(err)) from None
        what = f"{type_name} · {difficulty} · seed {seeds.encode(seed)}"
        if not options.empty:
            what += f" · {custom.text(options)}"
    if make_app is None:
        from screens.puzzle import PuzzleApp  # Textual loads only to play

        make_app = PuzzleApp
    outcome = make_app(p, coins=args.coins).run()
    if outcome is None:
        return f"{what}: not played\n"
    n = outcome.move_count
    moves = f"{n} move{'' if n == 1 else 's'}"
    if outcome.solved:
        return f"{what}: solved in {moves} (par {p.par}), score {outcome.score}\n"
    return f"{what}: left unsolved after {moves}\n"


def _read_stdin() -> str:
    try:
        return sys.stdin.read(MAX_INPUT_CHARS + 1)
    except UnicodeDecodeError:
        raise Fail("the input is not UTF-8 text") from None


def run(args: argparse.Namespace) -> None:
    if args.puzzle_command == "generate":
        sys.stdout.write(generate_text(args))
    elif args.puzzle_command == "solve":
        sys.stdout.write(solve_text(_read_stdin()))
    elif args.puzzle_command == "hint":
        sys.stdout.write(hint_text(_read_stdin()))
    else:
        sys.stdout.write(play_text(args))
