"""Replaying a game against its variant, and move text in each notation."""
