"""Skald: Viking board games in Python — exact rules, bots, tables, simulation and learning interfaces."""

__version__ = "0.1.0"
