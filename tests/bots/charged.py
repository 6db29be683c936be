"""A kit bot that budgets by the clock it is charged: on every move it
computes until ``clock.used()`` reaches the first argument (seconds), then
plays the first legal action -- however long that takes on the wall clock."""

import sys

from arena.botkit import Bot, run

BUDGET = float(sys.argv[1])


class Charged(Bot):
    def act(self, observation, legal, clock):
        while clock.used() < BUDGET:
            sum(range(1000))
        return legal[0]


run(Charged())
