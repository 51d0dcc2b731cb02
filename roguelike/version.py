"""Versions shown by ``roguelike --version`` and written into every save and seed listing."""

from importlib.metadata import PackageNotFoundError, version

try:
    GAME_VERSION = version("roguelike")
except PackageNotFoundError:  # running from a source tree that is not installed
    GAME_VERSION = "0.0.0"

#: Bump whenever the same seed code would give a different dungeon (the golden catalog in
#: tests/ fails until you do). Saves record it; a save from another generator is refused.
#: Seed and puzzle codes show it as their first symbol (roguelike/seeds.py), so a code of
#: another generator is refused, never played: keep it a whole number below 32.
#: 2: puzzles drawn into difficulty-score bands, the key-and-door puzzle redesigned, and a floor
#: never offers one puzzle type twice in a row.
#: 3: danger and decisions: a bestiary of 24 kinds, packs of two to four and sentinels, items
#: with costs and treasure laid out as a choice, room counts drawn over the whole range,
#: templates by depth, special rooms and hidden traps, and difficulty levels.
#: 4: two more special rooms, a vault sealed behind a puzzle and a captive to free among its
#: guards, and monsters that rouse a sleeper blocking their corridor.
#: 5: depth of play: potions and scrolls to identify (their looks dealt per world), fire on the
#: moss and marsh gas, five monsters whose answer is not a corridor, stealth and sleepers,
#: perks at each level, weapon and armour worn by choice; a compatibility reset (saves and
#: recordings of generator 4 are refused).
#: 6: puzzles that belong to the dungeon (one or two a floor, types dealt per world, a floor
#: change behind an optional pedestal, key-and-door boards in five shapes), fire on the first
#: floors (fire traps, fire ants from level 3), and seed and puzzle codes that name their
#: generator; a compatibility reset (saves and recordings of generator 5 are refused).
#: 7: the first floor's monsters stop at level 3 (no sentinel before the second floor);
#: saves and recordings of generator 6 are refused, as every other generator's.
#: 8: the perk identify by touch names potions and scrolls (it did nothing on 7), and a
#: monster woken by a noise behind a wall walks round it to look (on 7 it fell asleep again
#: at once); saves and recordings of generator 7 are refused.
GENERATOR_VERSION = "8"
