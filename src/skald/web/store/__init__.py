"""The web table's database, one store per concern over one shared engine (`stores.Stores` holds them all)."""
