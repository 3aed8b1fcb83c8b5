"""Widgets of the console."""
