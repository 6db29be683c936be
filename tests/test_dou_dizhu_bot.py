"""The dou-dizhu-greedy bot: plan cost, bidding, leading, following, legality."""

from arena.botkit.inprocess import play_game
from bots.dou_dizhu import GreedyBot, plan_cost
from bots.random_bot import RandomBot
from engines.dou_dizhu import DouDizhu, moves as M, state_from_hands


def cost(text):
    return plan_cost(M.counts_of(text))


def decide(state, seat):
    bot = GreedyBot()
    return bot.act(state.observation(seat), state.legal_actions(seat), {"move": 1.0, "bank": 0.0})


def test_plan_cost_counts_structures():
    assert cost("3") == 1
    assert cost("3456789") == 1
    assert cost("3579J") == 5
    assert cost("334455") == 1
    assert cost("33344455") == 1  # airplane with a pair as two single wings
    assert cost("3334445566") == 1  # airplane with pair wings
    assert cost("333K") == 1
    assert cost("333KQ") == 2
    assert cost("BR") == 1
    assert cost("3333") == 1
    assert cost("34567TTT") == 2  # straight + trio
    assert cost("345678") == 1


def test_bids_strong_hand_and_passes_weak_hand():
    bot = GreedyBot()
    legal = ["bid:0", "bid:1", "bid:2", "bid:3"]
    strong = {"hand": "3456789TJQKA222BR", "seat": 0}
    weak = {"hand": "334568899TJJQQKK5", "seat": 0}
    weak["hand"] = M.string_of_counts(M.counts_of(weak["hand"]))
    assert bot.act(strong, legal, {}) == "bid:3"
    assert bot.act(weak, legal, {}) == "bid:0"
    # a bid it wants below the current one becomes a pass
    medium = {"hand": M.string_of_counts(M.counts_of("3456789TJQ2BKK55A")), "seat": 0}
    choice = bot.act(medium, legal, {})
    assert choice in ("bid:1", "bid:2")
    assert bot.act(medium, ["bid:0", "bid:3"], {}) in ("bid:0", "bid:3")


def test_goes_out_when_it_can():
    state = state_from_hands(["345678", "9", "T"], landlord=0)
    assert decide(state, 0) == "345678"


def test_leads_low_and_keeps_bombs():
    state = state_from_hands(["3KKKK7", "99", "TT"], landlord=0)
    move = decide(state, 0)
    assert move not in ("KKKK",)
    assert M.INFO[move][4] == 0


def test_peasant_does_not_beat_its_partner():
    state = state_from_hands(["3456QQ", "5A", "9K2"], landlord=0)
    state.step(0, "3")
    state.step(1, "5")
    # seat 2 (the partner of seat 1) could beat with K or 2, but passes
    assert decide(state, 2) == "pass"


def test_peasant_beats_the_landlord():
    state = state_from_hands(["3456QQ", "5A", "9K2"], landlord=0)
    state.step(0, "QQ")
    state.step(1, "pass")
    state.step(2, "pass")
    state.step(0, "3")
    assert decide(state, 1) in ("5", "A")


def test_bombs_when_the_landlord_is_about_to_go_out():
    state = state_from_hands(["KK3", "5555789", "TJQ"], landlord=0)
    state.step(0, "KK")
    assert decide(state, 1) == "5555"


def test_peasant_next_to_partner_with_one_card_leads_lowest_single():
    # seat 1 leads; seat 2, its partner, plays next and holds one card
    state = state_from_hands(["3456QQKK99", "58JJ", "A"], landlord=0)
    state.step(0, "99")
    state.step(1, "JJ")
    state.step(2, "pass")
    state.step(0, "pass")
    assert state.to_act() == (1,)
    assert decide(state, 1) == "5"


def test_avoids_singles_when_an_opponent_has_one_card():
    # the landlord leads while a peasant holds one card: a pair, not a single
    state = state_from_hands(["3399", "A", "58JJ"], landlord=0)
    move = decide(state, 0)
    assert M.INFO[move][0] >> 5 != M.SOLO


def test_bot_plays_only_legal_moves_and_beats_random():
    engine = DouDizhu()
    wins = 0
    games = 0
    for deal in range(20):
        for seat in range(3):
            bots = [RandomBot(), RandomBot(), RandomBot()]
            bots[seat] = GreedyBot()
            outcome = play_game(engine, bots, 900 + deal)  # raises on an illegal move
            games += 1
            wins += outcome.ranks[seat] == 1
    assert wins / games > 0.75


def test_endgame_leads_the_unbeatable_play_first():
    # rocket + a low single: the rocket first keeps the lead for the last card
    state = state_from_hands(["3BR", "5555", "66"], landlord=0)
    assert decide(state, 0) == "BR"
    # with a straight left: still the rocket first ...
    state = state_from_hands(["34567BR", "8888", "99"], landlord=0)
    assert decide(state, 0) == "BR"
    # ... but a 2 can be beaten by an unseen joker: the long play goes first
    state = state_from_hands(["345672", "8888", "99"], landlord=0)
    assert decide(state, 0) == "34567"


def test_match_through_the_referee_with_leak_audit():
    """The bot in its own process, the referee's leak audit on every message."""
    from arena.match.referee import Deal, Entrant, TimeControl, play_match
    from arena.plugins.botspec import BotSpec

    greedy = BotSpec(
        "dou-dizhu-greedy", games=("dou-dizhu",), entry="bots.dou_dizhu:GreedyBot", version="1.0"
    )
    rand = BotSpec("random", entry="bots.random_bot:RandomBot", version="1.0")
    entrants = [Entrant("greedy", greedy), Entrant("r1", rand), Entrant("r2", rand)]
    deals = [Deal(100 + i, tuple((i + k) % 3 for k in range(3))) for i in range(6)]
    records = play_match(
        DouDizhu(),
        entrants,
        deals,
        limit=TimeControl(move=5.0, startup=30.0),
        sandbox="basic",
        audit=True,
    )
    assert len(records) == 6
    for record in records:
        assert all(seat.fault is None for seat in record.seats)
        assert sum(seat.score for seat in record.seats) == 0


def test_does_not_spend_a_bomb_as_four_with_two():
    state = state_from_hands(["333344445555666677BR", "JJQQKKAA22", "JJQQKKAA22"], landlord=0)
    move = decide(state, 0)
    assert M.INFO[move][0] >> 5 not in (M.FOUR2, M.FOUR22, M.BOMB, M.ROCKET)
