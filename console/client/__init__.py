"""Async HTTP client for every endpoint of the tenant administration API."""
