"""screens package."""
