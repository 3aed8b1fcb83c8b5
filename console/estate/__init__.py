"""Across tenants: what the console knows and does about every profile at once (issue 17).

Nothing here imports Textual: the command line (`tenant-console status`) and the console's
overview screen share it.
"""
