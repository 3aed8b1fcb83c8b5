"""The HTTP API: one router per resource, sharing authentication, bodies and paging."""
