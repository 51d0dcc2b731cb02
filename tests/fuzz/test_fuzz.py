"""The fuzz suite: every mutant of a real save and run file (tests/fuzz/support.py) through
the commands a player runs on a stranger's file, in a child process under a 2 GiB
address-space limit and a 30 s alarm per command.

For each input and command (``world import``, ``world list``, ``world list --format json``,
``world export`` for saves; ``runs import`` and ``replay --verify`` for run files) it asserts:
the exit status is 0 or the documented refusal (2; ``replay --verify`` also 1, a false run), a
refusal is exactly one line, there is never a traceback, no raw control byte reaches standard
output or error, and the save folder is unchanged whenever the command refused (listing never
changes it at all). The commands run in one child (tests/fuzz/runner.py), so the start-up
cost is paid once; a handful of true ``python -m roguelike.cli`` runs check the real process.

Run it with ``-s`` to see the summary: inputs, commands, the child's peak memory and the
slowest command. The long version adds seeded random mutants (bits flipped, stretches cut or
repeated) and more hypothesis examples in-process::

    ROGUELIKE_FUZZ_EXAMPLES=2000 uv run pytest -s tests/fuzz
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.support import (
    MEMORY_LIMIT,
    ROOT,
    RUN_MUTANTS,
    SAVE_MUTANTS,
    home_save,
    limit_memory,
    random_mutants,
    raw_controls,
    run_children,
)

#: Extra seeded random mutants (the long run sets ``ROGUELIKE_FUZZ_EXAMPLES``).
EXTRA = int(os.environ.get("ROGUELIKE_FUZZ_EXAMPLES", "0") or 0)
RANDOM = random_mutants(EXTRA // 10) if EXTRA else {}

SAVE_OPS = ("import", "list", "list-json", "export")
RUN_OPS = ("runs-import", "verify")


def _all_cases() -> list[tuple[str, str]]:
    saves = [*SAVE_MUTANTS, *(k for k in RANDOM if k.endswith("-save"))]
    run_files = [*RUN_MUTANTS, *(k for k in RANDOM if k.endswith("-run"))]
    cases = [(m, op) for m in saves for op in SAVE_OPS]
    return cases + [(m, op) for m in run_files for op in RUN_OPS]


def _param(case: tuple[str, str]) -> Any:
    return pytest.param(*case, id=f"{case[0]}:{case[1]}")


def _jobs(root: Path) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
    """The runner's jobs for every case, with the input files and folders made under ``root``;
    and each mutant's bytes, by name."""
    base = root / "base"
    base.mkdir()
    (base / "home.rgl").write_bytes(home_save())
    builders = {**SAVE_MUTANTS, **RUN_MUTANTS, **RANDOM}
    data = {name: build() for name, build in builders.items()}
    jobs: list[dict[str, Any]] = []
    for n, (mutant, op) in enumerate(_all_cases()):
        case = root / f"case{n}"
        case.mkdir()
        source = case / ("input.run" if op in RUN_OPS else "input.rgl")
        source.write_bytes(data[mutant])
        saves = case / "saves"
        shutil.copytree(base, saves)
        out = case / "out"
        out.mkdir()
        argv = {
            "import": ["world", "import", str(source)],
            "list": ["world", "list"],
            "list-json": ["world", "list", "--format", "json"],
            "export": ["world", "export", "tiny", "-o", str(out / "fuzz.rgl")],
            "runs-import": ["runs", "import", str(source)],
            "verify": ["replay", "--verify", str(source)],
        }[op]
        if op in ("list", "list-json", "export"):
            # a stranger's file in the folder, under the file name of the world most mutants
            # hold (the real save's, Tiny), so that the listing reads them as worlds
            (saves / "tiny.rgl").write_bytes(data[mutant])
        jobs.append(
            {
                "id": f"{mutant}:{op}",
                "argv": argv,
                "save_dir": str(saves),
                "watch": [str(saves), str(out)],
                "out": str(out / "fuzz.rgl"),
            }
        )
    return jobs, data


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory) -> dict[str, Any]:
    """Every case run once; the results by case id, and the input bytes by mutant."""
    root = tmp_path_factory.mktemp("fuzz")
    jobs, data = _jobs(root)
    results = run_children(jobs, root)
    by_id = {r["id"]: {**r, "out": j["out"]} for r, j in zip(results, jobs, strict=True)}
    slowest = max(results, key=lambda r: r["seconds"])
    peak = max(results, key=lambda r: r["maxrss_kib"])
    first_at_peak = next(r for r in results if r["maxrss_kib"] == peak["maxrss_kib"])
    print(
        f"\nfuzz: {len(data)} inputs, {len(results)} commands in one child under a "
        f"{MEMORY_LIMIT >> 30} GiB address-space limit; peak memory "
        f"{peak['maxrss_kib'] / 1024:.0f} MiB (reached at {first_at_peak['id']}); slowest "
        f"{slowest['seconds']:.2f} s ({slowest['id']}); all commands "
        f"{sum(r['seconds'] for r in results):.1f} s"
    )
    return {"results": by_id, "data": data}


@pytest.mark.parametrize(("mutant", "op"), [_param(c) for c in _all_cases()])
def test_a_strangers_file_is_refused_in_one_line_or_handled(fuzzed, mutant, op):
    r = fuzzed["results"][f"{mutant}:{op}"]
    assert r["status"] not in ("crash", "timeout"), r["crash"] or "no answer within 30 s"
    allowed = (0, 1, 2) if op == "verify" else (0, 2)
    assert r["status"] in allowed, (r["status"], r["stderr"])
    shown = r["stdout"] + r["stderr"]
    assert "Traceback" not in shown
    assert raw_controls(shown) == [], repr(shown[:400])
    lines = r["stderr"].splitlines()
    if r["status"] != 0:
        assert len(lines) == 1 and lines[0].startswith("roguelike"), r["stderr"]
        assert r["after"] == r["before"], "a refused command changed the save folder"
    else:
        assert len(lines) <= 1, r["stderr"]
    if op in ("list", "list-json"):
        assert r["status"] == 0, r["stderr"]
        assert r["after"] == r["before"], "listing changed the save folder"
    if op == "list-json" and r["status"] == 0:
        listed = json.loads(r["stdout"])
        assert {w["name"] for w in listed["worlds"]} >= {"Home"}
    if op == "export":
        out = Path(r["out"])
        if r["status"] == 0:  # an export is the file as it is, never a substitute
            assert out.read_bytes() == fuzzed["data"][mutant]
        else:
            assert not out.exists()


def test_the_real_files_are_accepted(fuzzed):
    """The corpus's sources themselves load: the tests above would pass for a game that
    refused everything, this one would not."""
    results = fuzzed["results"]
    for case in ("real:import", "hostile-texts:import", "real:export", "run-real:runs-import"):
        assert results[case]["status"] == 0, results[case]["stderr"]
    assert results["run-real:verify"]["status"] == 0, results["run-real:verify"]["stderr"]
    listing = json.loads(results["real:list-json"]["stdout"])
    assert {w["name"] for w in listing["worlds"]} == {"Home", "Tiny"}


def test_a_hostile_world_is_imported_with_its_name_shown_literally(fuzzed):
    r = fuzzed["results"]["hostile-texts:import"]
    assert "[bold]Hostile[/] world" in r["stdout"]
    listed = fuzzed["results"]["hostile-texts:list"]["stdout"]
    assert "[bold]Hostile[/] world" in listed


def test_a_name_with_an_escape_sequence_is_refused_naming_the_rule(fuzzed):
    for mutant in ("header-world-osc0", "header-world-bidi", "text-world.name"):
        r = fuzzed["results"][f"{mutant}:import"]
        assert r["status"] == 2 and "world name" in r["stderr"], (mutant, r["stderr"])
    assert "printable" in fuzzed["results"]["header-world-osc0:import"]["stderr"]


@pytest.mark.parametrize(
    "argv",
    [
        ["world", "import", "{bad}"],
        ["world", "import", "{good}", "--name", "x\x1b]0;pwned\x07"],
        ["replay", "--verify", "{bad}"],
    ],
    ids=["import-damaged", "import-name-with-escape", "verify-damaged"],
)
def test_the_real_command_refuses_in_one_line(tmp_path, argv):
    """A true ``python -m roguelike.cli`` process: the exit status and streams the shell sees."""
    good = tmp_path / "good.rgl"
    good.write_bytes(SAVE_MUTANTS["hostile-texts"]())
    bad = tmp_path / "bad.rgl"
    bad.write_bytes(SAVE_MUTANTS["flip-payload-middle"]())
    saves = tmp_path / "saves"
    args = [a.format(bad=bad, good=good) for a in argv]
    env = {**os.environ, "ROGUELIKE_SAVE_DIR": str(saves), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", *args],
        cwd=ROOT,
        env=env,
        preexec_fn=limit_memory,  # noqa: PLW1509 — the limit must be set in the child before it runs
        capture_output=True,
        timeout=60,
        check=False,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, err
    assert done.stdout == b""
    assert len(err.splitlines()) == 1 and err.startswith("roguelike"), err
    assert raw_controls(err) == [], err
    assert not saves.exists() or not any(saves.glob("*.rgl"))
