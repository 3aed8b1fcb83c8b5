"""A kind that exists only in the tests (issue 34's proof): widgets.

Its model (model.py), its declaration (kind.py, registered only by a test or the launcher),
its rows and routes on the real local service (store.py, routes.py) and the launcher that
serves them (`python -m proof_kind.serve`, serve.py). None of it is product code: a user's
`tenant-console serve` never serves widgets.
"""
