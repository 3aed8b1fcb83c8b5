"""The change journal: every change made through the console, recorded before it is sent.

    from console.journal.store import ChangeJournal, open_journal

Kept per user in a SQLite file in the user data directory (0600), with the object as it was
and as it became, so that History can show it and `undo` can take it back; and the key
rotations, in a table of their own (console.journal.rotations). Never any key.
Client-level code: imports console.client, never console.tui.
"""
