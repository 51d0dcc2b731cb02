"""asp package."""
