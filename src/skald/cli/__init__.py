"""Skald's command line: `skald simulate`, `skald replay`, `skald vikings score` and friends."""
