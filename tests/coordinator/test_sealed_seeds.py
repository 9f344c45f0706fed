"""Sealed decks at the table: the fingerprint shown at the deal is SHA-256 of the seed the
hand-end notice reveals, and that seed rebuilds the deal; the match's secret and the seed of
a hand still being played never appear in a public message, a log line or a spectator view.
Games from before seeds were sealed deal as they did and show no seal."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import replace

from bot.coordinator import commands as cmds
from bot.coordinator import history
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import User
from bot.coordinator.spectate import spectator_snapshot
from bot.coordinator.views import HandView, Notice, Text
from bot.engine import Match, new_hand
from bot.engine.seal import hand_seed, is_sealed
from bot.i18n import format_text
from tests.fakes import FakeChat

from .conftest import Harness
from .test_full_games import play_match
from .test_narration import rendered

BYSTANDER = User("u9", "Watcher")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def grouped(digest: str) -> str:
    return " ".join(digest.upper()[i:i + 4] for i in range(0, len(digest), 4))


def revealed(notice: Notice) -> str | None:
    """The seed a hand-end notice reveals (None for any other notice)."""
    seal = notice.text.params.get("seal") if "won hand" in notice.text.msgid else None
    return None if seal is None else seal.params.get("seed")


class SecretsWatch(FakeChat):
    """Checks each public message and spectator view as it goes out, against the store: it
    holds neither the match's secret nor the seed of a hand that is not over (the hand being
    played and the ones to come), as rendered in both languages or in any field."""

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self.store = store
        self.checked = 0
        self.seeds_seen: dict[int, str] = {}  # hand number -> seed revealed by its notice
        self.leaks: list[str] = []

    async def _secrets(self, game_id: str) -> list[str]:
        record = await self.store.get(game_id)
        if record is None or not record.has_match:
            return [str(record.options.seed)] if record is not None else []
        match = record.current()
        secret = str(match.seed)
        unfinished = range(match.hand_number + (1 if match.hand_over else 0), match.hand_number + 4)
        return [secret, secret.removeprefix("sealed:"),
                *(hand_seed(match.seed, n, match.table) for n in unfinished)]

    async def _check(self, game_id: str, shown: list[str]) -> None:
        secrets = await self._secrets(game_id)
        for text in shown:
            for secret in secrets:
                if secret in text:
                    self.leaks.append(f"{secret[:20]}… in {text[:200]!r}")
        self.checked += 1

    async def publish(self, chat, message, *, edit=None):
        game_id = message.game_id
        if game_id is not None:
            shown = [repr(message), rendered(message, "en"), rendered(message, "zh_CN")]
            await self._check(game_id, shown)
            snapshot = await spectator_snapshot(self.store, game_id)
            await self._check(game_id, [repr(snapshot)])
            if isinstance(message, Notice) and revealed(message) is not None:
                self.seeds_seen[message.text.params["hand"]] = revealed(message)
        return await super().publish(chat, message, edit=edit)

    async def send_hand(self, chat, user_id, view: HandView, *, edit=None):
        await self._check(view.game_id, [repr(view)])  # a hand has no business with seeds
        return await super().send_hand(chat, user_id, view, edit=edit)


async def test_the_fingerprint_at_the_deal_is_the_sha256_of_the_seed_revealed_at_the_end():
    h = Harness(seed=11, hand_pause=5)
    people = await h.start(2, 1, settings={"turn_timer": 0, "target_score": 10_000})
    h.game_id = (await h.record()).game_id
    dealt = h.chat.last_table()
    assert dealt.hand_number == 1 and len(dealt.fingerprint) == 64
    short = grouped(dealt.fingerprint)[:19]  # the first 16 hex digits, in four groups
    assert rendered(dealt, "en").splitlines()[3] == f"🔒 Deck sealed · SHA-256 {short}…"
    assert rendered(dealt, "zh_CN").splitlines()[3] == f"🔒 牌序已封存 · SHA-256 {short}…"
    by_id = {p.id: p for p in people}
    for _ in range(2000):  # play hand 1 to its end (the fake clock holds the next deal)
        if any(revealed(n) for n in h.chat.notices()):
            break
        state = await h.state()
        if state.current not in by_id:
            await h.clock.advance(3)
            continue
        assert (await h.human_move(by_id[state.current])).ok
    notice = next(n for n in h.chat.notices() if revealed(n))
    seed = revealed(notice)
    assert sha256(seed) == dealt.fingerprint
    # Every table of the hand showed the same commitment, and none the seed.
    tables = [t for t in h.chat.tables() if t.hand_number == 1]
    assert {t.fingerprint for t in tables} == {dealt.fingerprint} and len(tables) > 3
    assert not any(seed in rendered(t, "en") for t in tables)
    english, chinese = rendered(notice, "en").splitlines(), rendered(notice, "zh_CN").splitlines()
    assert english[-2:] == [f"🔓 Seed of hand 1: {seed}",
                            f"Its SHA-256, sealed at the deal: {grouped(dealt.fingerprint)}"]
    assert chinese[-2:] == [f"🔓 第1局的种子：{seed}",
                            f"发牌时封存的 SHA-256：{grouped(dealt.fingerprint)}"]
    # The seed rebuilds the deal: the dealer drawn, the hands, the first card.
    hand = history.hands_of(await h.store.match_history(h.game_id))[0]
    rebuilt, _ = new_hand(hand.start.players, hand.start.rules, seed)
    assert rebuilt == hand.start
    # The next hand is dealt after the pause, sealed afresh.
    assert (await h.state()).winner is not None
    await h.clock.advance(5)
    second = h.chat.last_table()
    assert second.hand_number == 2 and second.fingerprint not in ("", dealt.fingerprint)
    record = await h.record()
    assert is_sealed(record.options.seed) and len(record.options.seed) == len("sealed:") + 32
    assert second.fingerprint == sha256(hand_seed(record.options.seed, 2))


async def test_log_shows_the_hand_being_played_by_its_fingerprint_and_finished_hands_by_seed():
    h = Harness(seed=5)
    await h.start(2, settings={"turn_timer": 0})
    rigged = await h.rig({"u1": ["R1"], "u2": ["G5", "G6"]}, ["Y1", "Y2", "Y3", "Y4", "G1"], ["R9"],
                         current="u1", color="R")
    log = await h.do(cmds.ShowLog, BYSTANDER)
    lines = [format_text(t, "en") for t in log.lines]
    fingerprint = grouped(sha256(str(rigged.seed)))
    assert lines == ["Sealed decks: each hand's SHA-256 is shown at the deal, its seed once the "
                     "hand is over.", f"Hand 1 (not over): SHA-256 {fingerprint}"]
    assert str(rigged.seed) not in " ".join(lines)
    assert (await h.do(cmds.PlayCards, h_user(1), cards=("R1",))).ok  # hand 1 won, hand 2 dealt
    log = await h.do(cmds.ShowLog, BYSTANDER)
    second = h.chat.last_table()
    lines = [format_text(t, "zh_CN") for t in log.lines]
    assert lines[1:] == [f"第1局：种子 {rigged.seed}，SHA-256 {fingerprint}",
                         f"第2局（未结束）：SHA-256 {grouped(second.fingerprint)}"]
    # Stopped, the game's hand 2 never ended: /log still names its fingerprint only.
    assert (await h.do(cmds.StopGame, h_user(1))).ok
    after = " ".join(format_text(t, "en") for t in (await h.do(cmds.ShowLog, BYSTANDER)).lines)
    assert f"Hand 2 (not over): SHA-256 {grouped(second.fingerprint)}" in after
    seed_two = hand_seed((await h.store.get(second.game_id)).options.seed, 2)
    assert seed_two not in after and f"Hand 1: seed {rigged.seed}" in after


def h_user(n: int) -> User:
    from .conftest import user

    return user(n, is_admin=(n == 1))


async def test_no_public_message_log_line_or_spectator_view_holds_a_secret_seed(caplog):
    caplog.set_level(logging.DEBUG)
    store = MemoryStore()
    chat = SecretsWatch(store)
    h = Harness(seed=3, store=store, chat=chat)  # the next hand is dealt with the notice
    people = await h.lobby(1, 3, settings={"preset": "house", "target_score": 150, "turn_timer": 0})
    assert (await h.do(cmds.StartGame, people[0])).ok
    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    record = await store.get(h.game_id)
    assert record.status == "finished"
    assert chat.leaks == []
    assert chat.checked > 50
    secret = str(record.options.seed)
    match = record.current()
    # Every hand's seed was revealed once, when it ended: the one derived for that hand.
    assert sorted(chat.seeds_seen) == list(range(1, match.hand_number + 1))
    assert all(seed == hand_seed(secret, n) for n, seed in chat.seeds_seen.items())
    logged = "\n".join(f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records)
    assert secret not in logged and secret.removeprefix("sealed:") not in logged
    assert not any(seed in logged for seed in chat.seeds_seen.values())


async def test_a_game_from_before_sealed_seeds_deals_as_before_and_shows_no_seal():
    h = Harness(seed=2)
    people = await h.lobby(2, settings={"turn_timer": 0})
    record = await h.record()
    record.options = replace(record.options, seed=12345)  # as stored before seeds were sealed
    await h.store.save(record)
    assert (await h.do(cmds.StartGame, people[0])).ok
    expected, _ = Match.start([p.id for p in people], Match.from_json((await h.record()).match).rules,
                              12345)
    state = await h.state()
    assert state == expected.game and state.seed == "12345/hand1"
    table = h.chat.last_table()
    assert table.fingerprint == "" and table.seal is None
    assert "SHA-256" not in rendered(table, "en")
    assert (await h.do(cmds.ShowLog, BYSTANDER)).lines == ()
    # Its hand-end notice says why there is no seed, and names none.
    await h.rig({"u1": ["R1"], "u2": ["G5", "G6"]}, ["Y1", "Y2", "Y3", "Y4"], ["R9"],
                current="u1", color="R")
    assert (await h.do(cmds.PlayCards, people[0], cards=("R1",))).ok
    notice = next(n for n in h.chat.notices() if "won hand" in n.text.msgid)
    assert notice.text.params["seal"] == Text(
        "(This game began before decks were sealed: it has no seed to show.)")
    assert "12345" not in rendered(notice, "en")
