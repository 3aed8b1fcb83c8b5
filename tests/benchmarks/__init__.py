"""Benchmarks of the console and the local service: `python -m tests.benchmarks`.

Not part of the pytest suite (except the seeding check in test_seeding.py): each run starts
its own services, seeds 10,000 applications and prints one table of medians.
"""
