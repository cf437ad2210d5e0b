"""Skald: Viking board games in Python — exact rules, bots, tables, simulation and learning interfaces."""

from skald.build import prefer_sources

__version__ = "0.1.0"

prefer_sources()  # SKALD_PURE=1: a compiled install runs its Python sources (skald/build.py)
