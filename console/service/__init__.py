"""The local administration service: the whole API on FastAPI, uvicorn and SQLite."""
