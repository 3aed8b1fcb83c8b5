"""Several tenants as one estate: a tenant's configuration as a file, the plan that turns one
tenant (or file) into another, and applying it.

Nothing here imports Textual: the command line (`export`, `diff`, `apply`) and the console's
promotion share these modules. Imports run tui -> estate -> client -> models.
"""
