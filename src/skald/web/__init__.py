"""The web table: play with friends in the browser, with bots moving on the server (`skald serve`)."""

from skald.web.app import create_app
from skald.web.settings import Settings

__all__ = ["Settings", "create_app"]
