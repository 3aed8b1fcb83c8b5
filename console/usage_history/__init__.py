"""Usage over time (issue 28): every usage report the console reads, kept per tenant in a
SQLite file in the user data directory, and the month-end forecast made from them.

The service answers only "now"; the console remembers. Parts: store (the file), recorder
(what every reader calls), forecast (the arithmetic), demo_curve (the demo's growing usage),
cli (`tenant-console usage`). Nothing here imports Textual; nothing here holds a key.
"""
