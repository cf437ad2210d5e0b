"""The web table's HTTP endpoints, one router per concern; `create_app` includes them in this order."""
