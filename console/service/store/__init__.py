"""The data of the local service: tenants and everything they own, in one SQLite file.

The API's handlers call the per-resource modules with the connection of the request's
transaction; `Store` adds the operator's operations (bootstrap, usage, sweep) on top.
"""

from console.service.store.store import Caller, Store, TenantInfo

__all__ = ["Caller", "Store", "TenantInfo"]
