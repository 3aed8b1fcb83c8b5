"""The app's collaborators (console.tui.app keeps routing and the session): what it hands
off, each a small piece with one job: the preferences, the styles read after start, the
demo's service watch, the key check, the session's client set-up, the usage history."""
