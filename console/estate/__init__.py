"""Across tenants: what the console knows and does about every profile at once (issue 17):
the overview of every profile, a tenant's configuration as a file, the plan that turns one
tenant (or file) into another, and applying it.

Nothing here imports Textual: the command line (`status`, `export`, `diff`, `apply`) and the
console's overview and promotion share these modules. Imports run tui -> estate -> client ->
models.
"""
