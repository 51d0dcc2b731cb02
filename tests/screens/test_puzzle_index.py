"""The puzzle index, driven through Textual's Pilot: reached from the title, free play of a
puzzle to the end (its best score kept), a typed puzzle code, a bad code, and the puzzles met
in a saved world (whose name is shown as plain text).

Every test has a save folder of its own (``ROGUELIKE_SAVE_DIR``, set in tests/conftest.py)."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import DataTable, Input, Static

from roguelike import puzzles, seeds
from roguelike.puzzles import codes
from roguelike.puzzles.visit import score
from saves import Store
from saves.scores import BestScores
from screens.app import RoguelikeApp
from screens.puzzle import PuzzleScreen
from screens.puzzle_index import PuzzleIndexScreen
from screens.title import TitleScreen
from tests.saves.support import fresh_game, world_of
from tests.screens.support import press_to, screen_text

JUGS = codes.encode("jugs", "easy", seeds.parse("index"))


async def open_index(pilot) -> PuzzleIndexScreen:
    await pilot.pause()
    await pilot.press("i")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()  # the saved worlds are read in a thread
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleIndexScreen)
    return screen


async def solve_jugs_with_keys(pilot) -> None:
    """Solve the jugs puzzle on screen, each pour typed as its two jug numbers."""
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen)
    p = screen.visit.puzzle
    for m in p.solve(screen.visit.state):
        source, target = p.move_to_json(m)
        await pilot.press(str(source + 1), str(target + 1))
    await pilot.pause()
    assert screen.solved


def message(screen: PuzzleIndexScreen) -> str:
    return str(screen.query_one("#index-message", Static).render())


def table_rows(screen: PuzzleIndexScreen) -> list[list[str]]:
    table = screen.query_one("#met", DataTable)
    return [[str(cell) for cell in table.get_row_at(n)] for n in range(table.row_count)]


async def test_title_to_free_play_to_solved_and_back():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        assert "No puzzles met yet" in message(index)
        await pilot.press("enter")  # "Play new" has the focus: jugs, easy
        await pilot.pause()
        puzzle = app.screen
        assert isinstance(puzzle, PuzzleScreen)
        assert puzzle.visit.puzzle.type_name == "jugs"
        assert puzzle.visit.puzzle.difficulty == "easy"
        code = index.playing
        assert code is not None and code.startswith("jugs:easy#")
        await solve_jugs_with_keys(pilot)
        await pilot.press("enter")  # finish
        await pilot.pause()
        assert app.screen is index
        assert "solved, score 100 (a new best)" in message(index)
        assert BestScores(Store().path).read() == {code: 100}
        assert table_rows(index) == [["free play", "", "jugs", "easy", "yes", "–", "100"]]
        assert code in str(index.query_one("#index-detail", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert Store().list() == []  # free play saved no world


async def test_a_typed_code_opens_that_puzzle_and_enter_plays_it_again():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await pilot.press("ctrl+o")
        assert index.query_one("#code-input", Input).has_focus
        await pilot.press(*JUGS.upper(), "enter")  # codes are read case-insensitively
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        c = codes.parse(JUGS)
        assert app.screen.visit.puzzle == puzzles.generate(c.type, c.difficulty, c.seed)
        await pilot.press("escape", "escape")  # left unsolved: no score kept
        await pilot.pause()
        assert app.screen is index and "left unsolved" in message(index)
        assert BestScores(Store().path).read() == {}
        # a score kept earlier lists the puzzle; Enter on its row plays it again
        BestScores(Store().path).record(JUGS, 80)
        index.fill()
        index.query_one("#met", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        assert app.screen.visit.puzzle == puzzles.generate(c.type, c.difficulty, c.seed)
        await solve_jugs_with_keys(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert BestScores(Store().path).read() == {JUGS: 100}
        assert "(a new best)" in message(index)


async def test_a_typed_descriptive_code_plays_that_board():
    """The board itself (any release's code): played as it is, its score not kept."""
    board = "jugs:easy:10,9,3/9,1,0"
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await pilot.press("ctrl+o", *board, "enter")
        await app.workers.wait_for_complete()  # the board is built in a thread
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        p = app.screen.visit.puzzle
        assert (p.capacities, p.par) == ((10, 9, 3), 4)
        assert index.playing == board
        await solve_jugs_with_keys(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is index
        assert f"{board}: solved, score 100 (a board's score is not kept)" in message(index)
        assert BestScores(Store().path).read() == {}


async def test_a_descriptive_code_is_built_off_the_ui_thread_and_says_so(monkeypatch):
    """Solving a hand-made board to its par may take a second (a 4×4 sliding board at the
    solver's budget): it is built in a thread, the screen saying so and answering meanwhile;
    a second code while one is building is told to wait."""
    board = "jugs:easy:10,9,3/9,1,0"
    release = threading.Event()
    threads: list[threading.Thread] = []
    real = codes.build

    def slow_build(text):
        threads.append(threading.current_thread())
        if threading.current_thread() is not threading.main_thread():
            release.wait(60)  # held until the test has looked at the busy screen
        return real(text)

    monkeypatch.setattr(codes, "build", slow_build)
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await pilot.press("ctrl+o", *board, "enter")
        await pilot.pause()
        assert threads and threads[0] is not threading.main_thread()
        assert message(index) == f"Building {board}…"
        await pilot.press("enter")  # the same code again: still building
        await pilot.pause()
        assert message(index) == f"Still building {board}…"
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen) and index.playing == board
    assert len(threads) == 1


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("jugs:easy#[b]nope[/b]", "'[b]nope[/b]' is not a seed code"),
        ("jugs:easy#6NJC-NK2Y-YB22", "old form, made by generator"),
        ("jugs:easy:10,9,3/99,1,0", "bad board in the jugs code"),
        ("chess:hard#6NJC-NK2Y-YB22", "unknown puzzle type 'chess'"),
        ("jugs:easy#6-6NJC-NK2Y-YB2B", "wrong check symbol"),
    ],
)
async def test_a_bad_code_says_why_in_one_line_and_stays(code, words):
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await pilot.press("ctrl+o", *code, "enter")
        await app.workers.wait_for_complete()  # a descriptive code is built in a thread
        await pilot.pause()
        assert app.screen is index
        assert words in message(index)
        assert index.query_one("#index-message").has_class("error")
        assert words.split()[0] in screen_text(app)  # on screen, markup shown as typed


async def test_the_index_lists_a_puzzle_met_in_a_saved_world():
    state = fresh_game()
    room = sorted(state.puzzles.values(), key=lambda r: r.key)[0]
    p = room.puzzle()
    plan = p.solve(p.initial())
    room.visited, room.solved, room.hints_used = True, True, 1
    room.moves = [p.move_to_json(m) for m in plan]
    name = "[red]Not[/red] Markup"
    Store().save(state, world_of(state, name=name))
    code = codes.encode(room.type, room.difficulty, room.seed)
    BestScores(Store().path).record(code, 75)
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        rows = table_rows(index)
        assert rows == [
            [
                name,
                "1",
                room.type,
                room.difficulty,
                "yes",
                str(score(1, 0, len(plan), p.par)),
                "75",
            ]
        ]
        assert "[red]Not[/red] Ma…" in screen_text(app)  # plain text (cut to its column)
        assert code in str(index.query_one("#index-detail", Static).render())


async def test_the_title_menu_entry_opens_the_index_too():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Puzzles" in screen_text(app)
        await pilot.click("#puzzles")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleIndexScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_damaged_scores_file_is_a_notice_not_a_crash():
    folder = Store().path
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "puzzle-scores.json").write_bytes(b"{ not json")
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        index = await open_index(pilot)
        notices = [str(n.message) for n in app._notifications]
        assert any("kept aside" in n for n in notices), notices
        assert index.rows == []
        assert [p.read_bytes() for p in folder.glob("puzzle-scores.json.bad-*")] == [b"{ not json"]


async def test_a_puzzle_of_a_floor_left_behind_keeps_its_world_and_floor():
    """The save no longer holds the rooms of a floor the player left, but the run keeps each
    solved puzzle's floor, type, difficulty and score: the index names its world and floor,
    not "free play"."""
    state = fresh_game()
    room = sorted(state.puzzles.values(), key=lambda r: r.key)[-1]
    code = codes.encode(room.type, room.difficulty, room.seed)
    state.stats.puzzle_scores.append((1, room.type, room.difficulty, 85))
    state.puzzles = {}  # the floor's rooms are gone with it, as on the next floor
    Store().save(state, world_of(state, name="Deep"))
    BestScores(Store().path).record(JUGS, 60)  # a free-play puzzle stays free play
    BestScores(Store().path).record(code, 90)
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        assert table_rows(index) == [
            ["Deep", "1", room.type, room.difficulty, "yes", "85", "90"],
            ["free play", "", "jugs", "easy", "yes", "–", "60"],
        ]


async def test_the_code_box_starts_empty_each_time():
    other = codes.encode("stomp", "easy", seeds.parse("other"))
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await press_to(pilot, PuzzleScreen, "ctrl+o", *JUGS, "enter")
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert app.screen is index
        await pilot.press("ctrl+o")
        assert index.query_one("#code-input", Input).value == ""
        await pilot.press(*other, "enter")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        c = codes.parse(other)
        assert app.screen.visit.puzzle == puzzles.generate(c.type, c.difficulty, c.seed)
