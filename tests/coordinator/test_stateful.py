"""Random commands from random people (members, strangers, an admin) against one chat, under
official or house rules: no exception escapes ``handle``, nothing answers "internal", all 108
cards stay in play, the store version of a game never goes back, refusals leave the stored
game unchanged, the last table shows the position as stored (and its countdown, in the chat's
language), every person's last hand shows their cards in their language and offers moves
exactly when they have some (a call-out aside: the table offers it), a move pressed from that
hand is taken, and nobody who lost their seat, whose seat a bot plays or whose game is over
keeps a hand that offers a move."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bot.coordinator import commands as cmds
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, User
from bot.coordinator.views import TableView
from bot.engine import Match, legal_actions
from bot.engine.actions import CatchUno, ChooseColor, Draw, Pass, Play

from .conftest import Harness

PEOPLE = [User(f"u{i}", f"P{i}") for i in range(1, 5)] + \
    [User("s1", "Stranger"), User("adm", "Admin", is_admin=True)]
CARD_TEXTS = ["R1", "G5", "B+2", "YS", "W", "W+4", "R", "XX", "Y7", "GR"]
people = st.sampled_from(PEOPLE)
# The chat's rules to begin with: official, and house rules where more moves come out of turn
# (jump-in, 7-0 swaps, stacking, several cards, teams).
RULE_SETS = [
    {},
    {"late_join": True, "first_wild": "dealer_names", "wd4_challenge": False, "hand_size": 4},
    {"first_wild": "any_card", "match_end": "hands", "match_hands": 1, "scoring": "chips"},
    {"preset": "house"},
    {"seven_zero": True, "jump_in": True, "multi_play": True, "stacking": "progressive"},
    {"draw_until_playable": True, "stacking": "by_value", "force_play": True, "jump_in": True},
    {"preset": "house", "teams": True, "hand_size": 3},
    {"hand_size": 2, "play_after_draw": False, "uno_penalty": 4, "seven_zero": True},
]


class ChatMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10_000), rules=st.sampled_from(RULE_SETS))
    def setup(self, seed: int, rules: dict) -> None:
        self.loop = asyncio.new_event_loop()
        self.h = Harness(seed=seed)
        if rules:
            self.loop.run_until_complete(self.h.store.save_chat_settings(
                self.h.key, self.loop.run_until_complete(self.h._settings(rules))))
        # A second process on the same store and clock: no state may be trusted from memory.
        self.other = Coordinator(self.h.chat, self.h.store, self.h.clock, ai_delay=0, seed=seed + 1)
        self.active = self.h.coordinator
        self.versions: dict[str, int] = {}

    def teardown(self) -> None:
        if hasattr(self, "loop"):
            self.loop.run_until_complete(self.h.coordinator.close())
            self.loop.run_until_complete(self.other.close())
            self.loop.close()

    def run(self, command_type, who: User, **kw):
        before = self.loop.run_until_complete(self.h.store.load(self.h.key))
        reply = self.loop.run_until_complete(self.active.handle(command_type(self.h.key, who, **kw)))
        assert reply.error != "internal", reply
        assert reply.ok or reply.error, reply
        after = self.loop.run_until_complete(self.h.store.load(self.h.key))
        if not reply.ok and reply.error not in ("nothing_to_catch",) and before is not None \
                and after is not None and after.game_id == before.game_id:
            assert after.match == before.match and after.seats == before.seats
        return reply

    @rule(who=people)
    def new_game(self, who):
        self.run(cmds.NewGame, who)

    @rule(others=st.lists(st.sampled_from(PEOPLE[1:4]), min_size=1, max_size=3, unique=True),
          bots=st.integers(0, 2))
    def open_a_table(self, others, bots):
        """u1 opens, others join, bots sit, u1 starts (each step may be refused)."""
        self.run(cmds.NewGame, PEOPLE[0])
        for who in others:
            self.run(cmds.Join, who)
        for _ in range(bots):
            self.run(cmds.AddAiSeat, PEOPLE[0], strategy="easy")
        self.run(cmds.StartGame, PEOPLE[0])

    @rule(who=people)
    def join(self, who):
        self.run(cmds.Join, who)

    @rule(who=people)
    def leave(self, who):
        self.run(cmds.Leave, who)

    @rule(who=people)
    def start(self, who):
        self.run(cmds.StartGame, who)

    @rule(who=people, level=st.sampled_from(["easy", "normal", "hard", "silly"]))
    def add_ai(self, who, level):
        self.run(cmds.AddAiSeat, who, strategy=level)

    @rule(who=people, cards=st.lists(st.sampled_from(CARD_TEXTS), max_size=3),
          color=st.sampled_from([None, "R", "green", "x"]), uno=st.booleans())
    def play_anything(self, who, cards, color, uno):
        self.run(cmds.PlayCards, who, cards=tuple(cards), color=color, declare_uno=uno)

    @rule(data=st.data())
    def play_legally(self, data):
        record = self.loop.run_until_complete(self.h.store.load(self.h.key))
        if record is None or record.status != "running":
            return
        state = Match.from_json(record.match).game
        if state.current is None:
            return
        who = next((p for p in PEOPLE if p.id == state.current), None)
        if who is None:
            return
        actions = [a for a in legal_actions(state, who.id) if isinstance(a, Play | Draw | Pass | ChooseColor)]
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        if isinstance(action, ChooseColor):  # the dealer names the colour of a Wild turned first
            reply = self.run(cmds.NameColor, who, color=action.color.value)
        elif isinstance(action, Play):
            reply = self.run(cmds.PlayCards, who, cards=tuple(str(c) for c in action.cards),
                             color=action.color.value if action.color else None,
                             swap_with=action.swap, declare_uno=data.draw(st.booleans()))
        elif isinstance(action, Draw):
            reply = self.run(cmds.Draw, who)
        else:
            reply = self.run(cmds.Pass, who)
        assert reply.ok, reply

    @rule(data=st.data())
    def press_an_offered_move(self, data):
        """A person presses one of the moves their last hand offered: it is taken."""
        record = self.loop.run_until_complete(self.h.store.load(self.h.key))
        if record is None or record.status != "running":
            return
        offers = []
        for person in PEOPLE:
            shown = [v for v in self.h.chat.private.get(person.id, ()) if v.game_id == record.game_id]
            if shown and not shown[-1].hand_over:
                offers += [(person, shown[-1], m) for m in shown[-1].moves if m.kind != "catch"]
        if not offers:
            return
        person, view, move = data.draw(st.sampled_from(offers))
        event(f"pressed {move.kind}")
        reply = self.run(cmds.ChooseMove, person, ref=move.ref, press=view.press)
        assert reply.ok, (move, reply)

    @rule(who=people)
    def vote_end(self, who):
        self.run(cmds.VoteEnd, who)

    @rule(who=people, color=st.sampled_from(["R", "blue", "x"]))
    def name_color(self, who, color):
        self.run(cmds.NameColor, who, color=color)

    @rule(who=people, card=st.sampled_from(["W", "W+4", "R5", ""]), uno=st.booleans())
    def open_color_picker(self, who, card, uno):
        self.run(cmds.OpenColorPicker, who, card=card, declare_uno=uno)

    @rule(who=people)
    def declare_uno(self, who):
        self.run(cmds.DeclareUno, who)

    @rule(who=people, language=st.sampled_from(["zh", "en"]), scope=st.sampled_from(["user", "chat"]))
    def language(self, who, language, scope):
        self.run(cmds.SetLanguage, who, language=language, scope=scope)

    @rule(who=people)
    def draw(self, who):
        self.run(cmds.Draw, who)

    @rule(who=people)
    def pass_turn(self, who):
        self.run(cmds.Pass, who)

    @rule(who=people, whom=st.sampled_from([None, "u1", "u2", "P3", "ai1", "nobody"]))
    def call_uno(self, who, whom):
        self.run(cmds.CallUno, who, target=whom)

    @rule(who=people)
    def challenge(self, who):
        self.run(cmds.Challenge, who)

    @rule(who=people, whom=st.sampled_from(["u1", "u2", "u3", "ai1", "zz"]))
    def kick(self, who, whom):
        self.run(cmds.Kick, who, target=whom)

    @rule(who=people)
    def stop(self, who):
        self.run(cmds.StopGame, who)

    @rule(who=people, changes=st.dictionaries(
        st.sampled_from(["jump_in", "stacking", "hand_size", "turn_timer", "preset", "bogus"]),
        st.sampled_from([True, "off", 3, "same", "house", 0, 30, "??"]), max_size=2))
    def change_settings(self, who, changes):
        self.run(cmds.ChangeSettings, who, changes=changes)

    @rule(who=people)
    def show(self, who):
        for command in (cmds.ShowHand, cmds.ShowRules, cmds.ShowStats, cmds.ShowLeaderboard):
            self.run(command, who)

    @rule()
    def chat_gets_a_new_id(self):
        """The platform gives the chat a new id (a Telegram group upgraded): the game and the
        chat's settings go on under it, and nothing more is said under the old one."""
        old, new = self.h.key, ChatKey(self.h.key.platform, f"{self.h.key.chat_id}0")
        before = self.loop.run_until_complete(self.h.store.load(old))
        self.loop.run_until_complete(self.active.chat_moved(old, new))
        self.h.key = new
        after = self.loop.run_until_complete(self.h.store.load(new))
        assert self.loop.run_until_complete(self.h.store.load(old)) is None
        if before is not None:  # the same game (its bots may have moved on since)
            assert after is not None and after.game_id == before.game_id
            assert after.seats == before.seats and after.version > before.version
        said = len(self.h.chat.public)
        self.loop.run_until_complete(self.h.clock.advance(61))
        assert not [m for chat, m, _ in self.h.chat.public[said:] if chat == old]

    @rule()
    def switch_process(self):
        self.active = self.other if self.active is self.h.coordinator else self.h.coordinator

    @rule(seconds=st.sampled_from([1, 30, 61, 700]))
    def time_passes(self, seconds):
        self.loop.run_until_complete(self.h.clock.advance(seconds))

    @invariant()
    def cards_and_versions(self):
        if not hasattr(self, "h"):
            return
        for record in self.loop.run_until_complete(self.h.store.active_games()):
            assert record.version >= self.versions.get(record.game_id, 0)
            self.versions[record.game_id] = record.version
            event(f"a game is {record.status}")
            if record.match is not None:
                state = Match.from_json(record.match).game
                assert state.card_total() == 108
                assert {s.user_id for s in record.seats} >= set(state.players) or state.winner
                self._hands_tell_the_truth(record, state)
                if record.status == "running":
                    self._table_tells_the_truth(record, state)
            # A person who lost their seat, or whose seat a bot plays, holds no hand that
            # still offers a move in it.
            self._no_live_hand_without(record, {s.user_id for s in record.seats if s.ai is None})
        last = self.loop.run_until_complete(self.h.store.last_game(self.h.key))
        if last is not None and not last.active:  # nor does anyone once the game is over
            self._no_live_hand_without(last, set())

    def _hands_tell_the_truth(self, record, state) -> None:
        """Each person's last hand shows the cards they hold, and offers moves when, and only
        when, the engine has some for them."""
        for seat in record.seats:
            if seat.ai is not None or seat.user_id not in state.players:
                continue
            shown = [v for v in self.h.chat.private.get(seat.user_id, ()) if v.game_id == record.game_id]
            if not shown:
                continue
            last = shown[-1]
            assert last.locale == (seat.language or record.language)
            assert sorted(str(o.card) for o in last.cards) == sorted(map(str, state.hand(seat.user_id)))
            if not last.hand_over:  # a call-out is offered on the table, to everyone at once
                own = [a for a in legal_actions(state, seat.user_id) if not isinstance(a, CatchUno)]
                assert bool([m for m in last.moves if m.kind != "catch"]) == bool(own), seat.user_id

    def _table_tells_the_truth(self, record, state) -> None:
        """The game's last table shows the position as stored."""
        tables = [m for _, m, _ in self.h.chat.public
                  if isinstance(m, TableView) and m.game_id == record.game_id]
        if not tables:
            return
        table = tables[-1]
        assert table.locale == record.language
        assert table.deadline == (record.deadlines.get("turn") if state.current else None)
        assert (table.current, table.top, table.color, table.pending_draw) == \
            (state.current, state.top, state.color, state.pending_draw)
        assert {seat.user_id: seat.cards for seat in table.seats} == \
            {player: state.card_count(player) for player in state.players}

    def _no_live_hand_without(self, record, seated: set[str]) -> None:
        for user_id, views in self.h.chat.private.items():
            shown = [v for v in views if v.game_id == record.game_id]
            if shown and user_id not in seated:
                assert shown[-1].hand_over and not shown[-1].moves, user_id


ChatMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=50, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
TestChat = ChatMachine.TestCase
