"""The games Skald plays, each registering itself with `skald.engine`."""
