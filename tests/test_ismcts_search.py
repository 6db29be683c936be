"""The ISMCTS search on tiny games whose best move is known by hand.

Each game is a few lines of the engine contract, so a failure points at the
search, not at a card game: a plain best move two plies deep, a guess where
only the sampled hidden card (not the true one) may inform the choice, a
simultaneous move with a dominant action, and the reward of teams and dummies.
"""

import random

from arena.game import DummyResult, Engine, GameInfo, Outcome, State
from bots.ismcts.knowledge import Knowledge, rank_rewards
from bots.ismcts.search import Search


class TinyState(State):
    """A game given by ``moves`` (seat, actions) turns and a ``score`` of the
    history; ``hidden`` is a card only seat 1 sees."""

    def __init__(self, game, hidden=None):
        self.game, self.hidden, self.history = game, hidden, []
        self.players = game.players

    def to_act(self):
        if len(self.history) == len(self.game.turns):
            return ()
        return self.game.turns[len(self.history)][0]

    def legal_actions(self, seat):
        return list(self.game.turns[len(self.history)][1])

    def observation(self, seat):
        seen = self.hidden if seat == 1 else None
        return {"seat": seat, "history": [dict(step) for step in self.history], "card": seen}

    def apply(self, actions):
        self.history.append(dict(actions))

    def outcome(self):
        return Outcome.from_scores(self.game.score(self.history, self.hidden))

    def clone(self):
        copy = TinyState(self.game, self.hidden)
        copy.history = [dict(step) for step in self.history]
        return copy


class TinyGame(Engine):
    info = GameInfo(id="tiny", version="1", players=(2,))

    def __init__(self, turns, score, deck=(None,)):
        self.turns, self.score, self.deck, self.players = turns, score, deck, 2

    def new_game(self, players, seed, options=None):
        return TinyState(self, random.Random(seed).choice(self.deck))

    def sample_state(self, observation, rng):
        hidden = observation["card"] if observation["seat"] == 1 else rng.choice(self.deck)
        state = TinyState(self, hidden)
        state.history = [dict(step) for step in observation["history"]]
        return state


def best_move(game, state, seat=0, iterations=2000):
    search = Search(game, Knowledge(), random.Random(5))
    search.run(state.observation(seat), iterations)
    return search.best(seat, state.legal_actions(seat))


def test_finds_the_move_that_survives_the_opponents_best_reply():
    # seat 0 picks a row, seat 1 a column of [[3, -9], [1, 2]] (seat 0's gain):
    # "risky" has the best single cell but the reply -9; "safe" guarantees 1
    table = {
        ("risky", "left"): 3,
        ("risky", "right"): -9,
        ("safe", "left"): 1,
        ("safe", "right"): 2,
    }

    def score(history, hidden):
        gain = table[(history[0][0], history[1][1])]
        return [gain, -gain]

    game = TinyGame([((0,), ("risky", "safe")), ((1,), ("left", "right"))], score)
    assert best_move(game, game.new_game(2, 0)) == "safe"


def test_guesses_from_the_sampled_hidden_card_not_the_true_one():
    # seat 1 holds a card from a deck of two reds and one blue; seat 0 scores
    # by naming its colour.  The true card here is blue, but seat 0 cannot
    # know: only determinizations from its observation may count, and they
    # say red two times in three.  (A search that peeked would say blue.)
    def score(history, hidden):
        right = history[0][0] == hidden
        return [1, 0] if right else [0, 1]

    game = TinyGame([((0,), ("blue", "red"))], score, deck=("red", "red", "blue"))
    state = TinyState(game, hidden="blue")
    assert best_move(game, state) == "red"
    # control: when the deck says blue, so does the search
    game_blue = TinyGame([((0,), ("blue", "red"))], score, deck=("blue", "blue", "red"))
    assert best_move(game_blue, TinyState(game_blue, hidden="red")) == "blue"


def test_simultaneous_move_finds_the_dominant_action_for_each_seat():
    # a prisoner's dilemma: "defect" is better for each seat whatever the other does
    pay = {
        ("quiet", "quiet"): (3, 3),
        ("quiet", "defect"): (0, 5),
        ("defect", "quiet"): (5, 0),
        ("defect", "defect"): (1, 1),
    }

    def score(history, hidden):
        return list(pay[(history[0][0], history[0][1])])

    game = TinyGame([((0, 1), ("quiet", "defect"))], score)
    state = game.new_game(2, 0)
    assert best_move(game, state, seat=0) == "defect"
    assert best_move(game, state, seat=1) == "defect"


def test_search_replays_exactly_for_a_seed_and_iteration_count():
    table = {("a", "x"): 1, ("a", "y"): 0, ("b", "x"): 0, ("b", "y"): 1}
    game = TinyGame(
        [((0,), ("a", "b")), ((1,), ("x", "y"))],
        lambda h, _: [table[(h[0][0], h[1][1])], -table[(h[0][0], h[1][1])]],
    )
    observation = game.new_game(2, 0).observation(0)

    def visits(seed):
        search = Search(game, Knowledge(), random.Random(seed))
        search.run(observation, 300)
        return {action: entry[0] for action, entry in search.root.stats[0].items()}

    assert visits(1) == visits(1)
    assert sum(visits(1).values()) == 300


def test_team_members_share_a_reward_and_dummies_are_rivals():
    # Dou Dizhu-like: two peasants (team 1) beat the landlord (team 0)
    won = rank_rewards(Outcome.from_scores([-6, 3, 3], teams=[0, 1, 1]))
    assert won == [0.0, 1.0, 1.0]
    # one seat between two dummies: beat one, lost to one
    between = Outcome.from_scores([5], dummies={"Mac": 9, "Donald": 1})
    assert rank_rewards(between) == [0.5]
    assert Outcome.from_scores([5], dummies={"Mac": 9, "Donald": 1}).dummies[0] == DummyResult(
        "Mac", 9, 1
    )
    # the score blend keeps the order of scores when the ranks tie
    assert (
        rank_rewards(Outcome.from_scores([4, 4]), 10)[0]
        > rank_rewards(Outcome.from_scores([1, 1]), 10)[0]
    )


def test_a_horizon_stops_tree_and_rollouts_and_the_evaluation_decides():
    # the game's end favours "a"; the evaluation at the horizon (after the
    # first turn) favours "b": with the horizon only the evaluation counts
    def score(history, hidden):
        return [1, 0] if history[0][0] == "a" else [0, 1]

    def evaluate(state):
        return [1.0, 0.0] if state.history[0][0] == "b" else [0.0, 1.0]

    game = TinyGame([((0,), ("a", "b")), ((1,), ("x", "y")), ((0,), ("p", "q"))], score)
    state = game.new_game(2, 0)
    bounded = Knowledge(horizon=lambda s: len(s.history) >= 1, evaluate=evaluate)
    search = Search(game, bounded, random.Random(3))
    search.run(state.observation(0), 200)
    assert search.best(0, ["a", "b"]) == "b"
    # nothing past the horizon was searched: the children of the root are empty
    assert all(not child.stats for child in search.root.children.values())
    # control: without the horizon the same search plays for the game's end
    assert best_move(game, state, iterations=200) == "a"


def test_a_horizon_of_two_turns_sees_the_reply_one_turn_does_not():
    # seat 0's "greedy" gains 2 at once, "modest" 1; seat 1 may then
    # "punish", which costs a greedy seat 0 three.  Scored after one turn
    # "greedy" looks best; after two (the reply included) "modest" does
    def evaluate(state):
        first = state.history[0][0]
        gain = 2 if first == "greedy" else 1
        if len(state.history) > 1 and state.history[1][1] == "punish" and first == "greedy":
            gain -= 3
        return [0.5 + gain / 10, 0.5 - gain / 10]

    game = TinyGame(
        [((0,), ("greedy", "modest")), ((1,), ("punish", "idle")), ((0,), ("p", "q"))],
        lambda history, hidden: [0, 0],
    )
    observation = game.new_game(2, 0).observation(0)
    choices = {}
    for turns in (1, 2):
        knowledge = Knowledge(horizon=lambda s: s.to_act(), turns=turns, evaluate=evaluate)
        search = Search(game, knowledge, random.Random(4))
        search.run(observation, 300)
        choices[turns] = search.best(0, ["greedy", "modest"])
    assert choices == {1: "greedy", 2: "modest"}


def test_evaluate_end_scores_a_finished_game_by_the_evaluation():
    # the outcome says "a", the evaluation (also of the finished game) "b"
    def score(history, hidden):
        return [1, 0] if history[0][0] == "a" else [0, 1]

    def evaluate(state):
        return [1.0, 0.0] if state.history[0][0] == "b" else [0.0, 1.0]

    game = TinyGame([((0,), ("a", "b"))], score)
    observation = game.new_game(2, 0).observation(0)
    for evaluate_end, expected in ((True, "b"), (False, "a")):
        knowledge = Knowledge(horizon=lambda s: 0, evaluate=evaluate, evaluate_end=evaluate_end)
        search = Search(game, knowledge, random.Random(2))
        search.run(observation, 50)
        assert search.best(0, ["a", "b"]) == expected


def test_advice_is_kept_unless_the_search_beats_it_by_the_margin():
    # "b" is worth 1.0, "a" 0.9 (seat 0's share of 10 points)
    def score(history, hidden):
        mine = 10 if history[0][0] == "b" else 9
        return [mine, 10 - mine]

    game = TinyGame([((0,), ("a", "b"))], score)
    knowledge = Knowledge(reward=lambda outcome: [s / 10 for s in outcome.scores])
    search = Search(game, knowledge, random.Random(2))
    search.run(game.new_game(2, 0).observation(0), 100)
    assert search.best(0, ["a", "b"]) == "b"  # no advice: the search's
    assert search.best(0, ["a", "b"], advice="a", margin=0.2) == "a"  # within the margin
    assert search.best(0, ["a", "b"], advice="a", margin=0.05) == "b"  # beaten clearly
    assert search.best(0, ["a", "b"], advice="c", margin=0.2) == "b"  # not legal: ignored
