"""The built-in game engines, one package per game: rules only, no I/O."""
