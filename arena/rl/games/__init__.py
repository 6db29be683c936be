"""The encodings of the five built-in games, one module each (``docs/rl.md``)."""
