"""The example-bot bot.

The arena runs this class in a sandboxed process of its own, through the bot
kit (arena.botkit): one instance lives for a whole match, a series of games
in which your seat may change.  The bot kit calls the methods below as the
referee's messages arrive (docs/protocol.md describes them all).

- Stdout is the wire: the bot kit sends `print` output to stderr, of which
  the referee keeps the first 64 KiB.  Print your debugging there freely.
- Every `act` has a time limit (`clock["move"]` seconds, default 1.0, plus
  a per-game bank `clock["bank"]`); too slow, a crash, or an action not in
  `legal` is a fault: the seat is played out at random and ranks last.
- Take every random choice from `self.rng`: the bot kit reseeds it from
  each game's own seed before `new_game`, so every game can be replayed
  exactly (and a resumed tournament equals an uninterrupted one).
- The sandbox has no network, and the files your package installs are
  read-only; your home and working folder is a private, empty /tmp.
"""

from arena.botkit import Bot


class ExampleBot(Bot):
    """Plays any game: for now, a uniformly random legal action."""

    #: reported to the referee in the ready message (shown in its logs)
    name = "example-bot"
    version = "0.1.0"

    def new_match(self, hello):
        """Once per match, before the first game.

        `hello` has "game" (the game id, e.g. "farm-and-furious"), "options"
        (every game option with its value), "players" (bot seats at the
        table), "limits" ({"startup", "move", "bank"} in seconds) and "seed"
        (self.rng is already seeded with it).
        """
        self.game = hello["game"]

    def new_game(self, game):
        """Before each game of the match (no answer).

        `game` has "index" (0 for the match's first game), "seat" (your seat
        in this game, from 0; it can change from game to game), "players" and
        "seed" (self.rng is already reseeded with it).
        """
        self.seat = game["seat"]

    def act(self, observation, legal, clock):
        """Your move: return one element of `legal`, as it is.

        `observation` is everything your seat knows now (always "seat"; the
        other keys per game: docs/games/<game>.md).  `legal` is a non-empty
        list of strings or integers: return one of them unchanged (a string
        stays a string, an int an int).  `clock` has "move" (seconds for this
        move) and "bank" (seconds left in this game's time bank).
        """
        return self.rng.choice(legal)

    def game_over(self, result):
        """After each game (no answer).

        `result` has "seat" (yours), "scores" and "ranks" (by seat; rank 1 is
        best, ties share a rank, faulted seats are last; engine-played dummies
        follow the seats in "ranks") and "observation" (your final view).
        """
