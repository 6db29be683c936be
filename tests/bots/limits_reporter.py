"""A bot that writes its address-space limit (``unlimited`` or bytes) to the
file named by argument 1, then plays the first legal action: which sandbox
level it runs in shows from outside."""

import resource
import sys

from arena.botkit import Bot, run


class Reporter(Bot):
    def new_match(self, hello):
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        with open(sys.argv[1], "w") as out:
            out.write("unlimited" if soft == resource.RLIM_INFINITY else str(soft))

    def act(self, observation, legal, clock):
        return legal[0]


if __name__ == "__main__":
    wire = sys.stdout.buffer
    sys.stdout = sys.stderr
    run(Reporter(), stdout=wire)
