"""Webhooks outside the service: signing and checking deliveries (`signing`), and the
command line's `webhooks` commands (`listen`, `trigger`, `list`, ...). The local service
signs with `signing`; nothing here imports the service, the client or the TUI at import time."""
