"""roguelike package."""
