"""The ``ismcts`` bot: one search (:mod:`.search`) for every game, with small
per-game parts (:mod:`.knowledge` and a module per game where it pays)."""
