"""Audit: the tenant's logs kept beyond the service's retention, and what is made of them
(the access review's activity, the evidence pack). Below the TUI; imports the client and the
models, never Textual."""
