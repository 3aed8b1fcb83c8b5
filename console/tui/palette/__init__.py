"""The command palette's providers."""
