"""Profiles (name + base URL) in a TOML file, and their API keys in the OS keyring."""
