"""``python -m roguelike.cli``: the same as the ``roguelike`` command."""

from roguelike.cli import main

raise SystemExit(main())
