"""Floor generation: one module per pipeline stage, and the pipeline that runs them.

1. ``topology`` — rooms, corridors, locks and keys, solved by clingo (``validate`` checks the
   result independently);
2. ``roles`` — which rooms are special rooms (treasure, snares …: the records of ``special``);
3. ``layout`` — the rooms' templates (``templates``, ``rooms/``) placed on a grid, with corridors;
4. ``stamp`` — the tile map, doors, keys, spawn and stairs;
5. ``terrain`` — water, moss, rubble, chasms, statues and cave pockets;
6. ``populate`` — slots for monsters, items and treasure;
7. ``prove`` — a walk through the floor that checks every promise.

``pipeline.generate_floor`` runs them; ``floor`` holds each stage's record and the final
``Floor``; ``formats`` prints any of them as JSON, graphviz dot or ASCII.
"""

#: The stage names, in pipeline order (``roguelike generate --stage``). Defined here rather than
#: in ``pipeline`` so that the command line can list them without loading the generator.
STAGES = ("topology", "roles", "layout", "stamp", "terrain", "population", "proof")
