"""The pipeline as a typed chain: each stage runs on its own from the previous stage's record,
and stopping after any stage gives the same record as that prefix of the chain."""

import dataclasses

import numpy as np
import pytest

from roguelike import seeds
from roguelike.gen import STAGES, formats
from roguelike.gen.floor import Cast, Decorated, Floor, Laid, Planned, Populated, Stamped
from roguelike.gen.layout import lay_out
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.populate import populate
from roguelike.gen.prove import certify
from roguelike.gen.roles import assign_roles
from roguelike.gen.stamp import stamp
from roguelike.gen.terrain import dress
from roguelike.gen.topology import generate_topology, params_for_floor

SEED, NUMBER = 77, 2
RECORDS = (Planned, Cast, Laid, Stamped, Decorated, Populated, Floor)


def chain() -> list[Planned]:
    """Every stage by hand, each from the previous stage's record and its own stream."""
    params = params_for_floor(NUMBER)

    def stream(name: str):
        return seeds.stream(SEED, NUMBER, name)

    planned = Planned(
        seed=SEED,
        number=NUMBER,
        last=False,
        params=params,
        topology=generate_topology(SEED, NUMBER, params),
    )
    cast = assign_roles(planned, stream("roles"))
    laid = lay_out(cast)
    stamped = stamp(laid, stream("stamp"))
    decorated = dress(stamped, stream("terrain"))
    populated = populate(decorated, stream("population"), stream("traps"))
    return [planned, cast, laid, stamped, decorated, populated, certify(populated)]


@pytest.fixture(scope="module")
def records() -> list[Planned]:
    return chain()


def same(a: Planned, b: Planned) -> bool:
    """Field by field, arrays by value."""
    if type(a) is not type(b):
        return False
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if not np.array_equal(x, y) or x.dtype != y.dtype:
                return False
        elif x != y:
            return False
    return True


def test_each_stage_returns_its_record_with_every_field_set(records):
    assert [type(r) for r in records] == list(RECORDS)
    for r in records:
        assert all(getattr(r, f.name) is not None for f in dataclasses.fields(r))


def test_a_stage_never_changes_what_earlier_stages_made(records):
    for earlier, later in zip(records, records[1:], strict=False):
        for f in dataclasses.fields(earlier):
            if f.name == "tiles" and isinstance(later, Decorated):
                continue  # the terrain stage dresses the stamped tiles
            x, y = getattr(earlier, f.name), getattr(later, f.name)
            assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y, f.name


@pytest.mark.parametrize("stage", STAGES)
def test_stopping_after_a_stage_gives_that_prefix_of_the_chain(records, stage):
    got = generate_floor(SEED, NUMBER, stop_after=stage)
    assert same(got, records[STAGES.index(stage)])
    assert formats.floor_json(got) == formats.floor_json(records[STAGES.index(stage)])


def test_the_whole_pipeline_is_the_whole_chain(records):
    assert same(generate_floor(SEED, NUMBER), records[-1])


def test_an_unknown_stage_is_refused():
    with pytest.raises(ValueError, match="unknown stage"):
        generate_floor(SEED, NUMBER, stop_after="furniture")
