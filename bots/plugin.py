"""Registers the built-in bots (entry point ``builtin-bots``).

Only launch specs live here: importing this module never imports bot code.
"""

from arena.plugins import hookimpl
from arena.plugins.botspec import BotSpec


@hookimpl
def register_bots():
    return [
        BotSpec(
            "random",
            entry="bots.random_bot:RandomBot",
            version="1.0",
            description="uniformly random legal actions, seeded",
        ),
        BotSpec(
            "farm-and-furious-racer",
            games=("farm-and-furious",),
            entry="bots.farm_and_furious:Racer",
            version="1.0",
            description="expected-advance heuristic against the hands it can deduce",
        ),
        BotSpec(
            "farm-and-furious-learned",
            games=("farm-and-furious",),
            entry="bots.farm_and_furious_learned:LearnedBot",
            version="1.0",
            description="tabular policy trained on arena.rl's environment (docs/rl.md); "
            "needs the rl extra",
        ),
        BotSpec(
            "dou-dizhu-greedy",
            games=("dou-dizhu",),
            entry="bots.dou_dizhu:GreedyBot",
            version="1.0",
            description="hand-plan heuristic: bids by strength, sheds in "
            "fewest plays, keeps bombs, peasants cooperate",
            ask_forced=False,  # act returns a single legal action at once
        ),
        BotSpec(
            "farm-hand-counter",
            games=("farm-hand",),
            entry="bots.farm_hand:CounterBot",
            version="1.0",
            description="Monte Carlo over the hidden numbers (known suits "
            "and dummy order kept); bids and plays for its exact bid",
            ask_forced=False,  # act returns a single legal action at once
        ),
        BotSpec(
            "hand-and-foot-builder",
            games=("hand-and-foot",),
            entry="bots.hand_and_foot:BuilderBot",
            version="1.0",
            description="meets the initial meld, builds clean and dirty books, spends wilds "
            "sparingly, takes the pile when it pays, goes out as soon as it can",
        ),
        BotSpec(
            "vegetables-planner",
            games=("vegetables",),
            entry="bots.vegetables:PlannerBot",
            version="1.0",
            description="turn planner: block chances, reserves and runs of "
            "own cards, opponent options",
            ask_forced=False,  # act returns a single legal action at once
        ),
        BotSpec(
            "ismcts",
            entry="bots.ismcts.bot:IsmctsBot",
            version="1.0",
            description="information-set Monte Carlo tree search over sampled hidden "
            "states, any game; settings in docs/bots.md",
            ask_forced=False,  # act returns a single legal action at once
        ),
    ]
