"""saves package."""
