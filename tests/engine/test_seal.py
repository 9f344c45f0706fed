"""Sealed seeds: each hand's seed comes one way from the match's secret, distinct per hand and
per table; its fingerprint (SHA-256) is known at the deal and the seed only once the hand is
over; the revealed seed rebuilds the deal. Older seeds deal exactly as they always did."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from bot.engine import HOUSE, OFFICIAL, Match, RuleSet, legal_actions, new_hand
from bot.engine.actions import Draw, Pass, Play
from bot.engine.seal import fingerprint, hand_seed, is_sealed, sealed_seed

SECRET = sealed_seed(1)


def play_out(match: Match, rnd: random.Random) -> Match:
    for _ in range(3000):
        if match.hand_over:
            return match
        actions = legal_actions(match.game, match.game.current)
        plays = [a for a in actions if isinstance(a, Play)]
        match, _ = match.apply(rnd.choice(plays or [a for a in actions if isinstance(a, Draw | Pass)]
                                          or actions))
    raise AssertionError("the hand did not end")


def test_a_sealed_seed_holds_128_random_bits_as_32_hex_digits():
    assert SECRET == "sealed:" + "0" * 31 + "1"
    assert sealed_seed((1 << 128) - 1) == "sealed:" + "f" * 32
    for bad in (-1, 1 << 128):
        with pytest.raises(ValueError):
            sealed_seed(bad)
    assert is_sealed(SECRET)
    assert not any(is_sealed(old) for old in (0, 12345, "12345", "old-string", "sealed:"))


def test_the_hand_seed_is_the_hmac_of_table_and_hand_keyed_by_the_secret():
    # Pinned: a stored sealed game must deal the same cards after any release.
    assert hand_seed(SECRET, 1) == "bda409327a91d1b261c2b0fa7bbd1fac954736d40490cd02a1a984077238ccbc"
    expected = hmac.new(SECRET.encode(), b"table2/hand5", hashlib.sha256).hexdigest()
    assert hand_seed(SECRET, 5, 2) == expected
    assert fingerprint(hand_seed(SECRET, 1)) == \
        "4fff0442b04f9ef509b750d7115c3695fd47d6c373411414fda6558e86dc3186"
    assert fingerprint(12345) == hashlib.sha256(b"12345").hexdigest()


def test_sealed_hand_seeds_are_distinct_per_hand_and_per_table_and_hide_the_secret():
    seeds = {(table, number): hand_seed(SECRET, number, table)
             for table in range(3) for number in range(1, 101)}
    assert len(set(seeds.values())) == len(seeds)
    secret_digits = SECRET.removeprefix("sealed:")
    for seed in seeds.values():
        assert len(seed) == 64 and int(seed, 16) >= 0
        assert SECRET not in seed and secret_digits not in seed and "hand" not in seed
    # One bit more in the secret changes every hand's seed: nothing links them.
    other = sealed_seed(3)
    for number in range(1, 20):
        a, b = int(hand_seed(SECRET, number), 16), int(hand_seed(other, number), 16)
        assert 64 < bin(a ^ b).count("1") < 192


def test_older_seeds_derive_their_hands_exactly_as_before():
    assert Match._hand_seed(12345, 2) == "12345/hand2"
    assert Match._hand_seed(12345, 3, table=1) == "12345/t1/hand3"
    assert Match._hand_seed("old-string", 1) == "old-string/hand1"
    match, _ = Match.start(["ana", "bo", "cy"], seed=12345)
    game = match.game
    assert (game.seed, game.dealer, str(game.top)) == ("12345/hand1", "cy", "Y7")
    assert [" ".join(map(str, hand)) for hand in game.hands] == [
        "R3 W Y9 Y3 BR B5 G3", "R2 B9 G5 RS R5 G+2 BS", "R2 Y2 YS YR Y9 R9 BR"]
    assert str(game.draw_pile[0]) == "Y1"
    assert not match.sealed and match.fingerprint is None
    match = play_out(match, random.Random(1))
    assert match.hand_over and match.revealed_seed is None and match.finished_seed(1) is None
    match, _ = Match.start(["ana", "bo", "cy", "dee"], HOUSE, seed="old-string")
    assert (match.game.dealer, str(match.game.top)) == ("cy", "B1")
    assert " ".join(map(str, match.game.hands[0])) == "B8 Y7 G3 R2 G8 Y5 Y5"


def test_the_fingerprint_at_the_deal_matches_the_seed_revealed_at_the_end():
    rnd = random.Random(4)
    match, _ = Match.start(["ana", "bo", "cy"], RuleSet(target_score=10_000), seed=SECRET)
    fingerprints = []
    for number in range(1, 4):
        assert match.sealed and match.hand_number == number
        at_deal = match.fingerprint
        assert at_deal == fingerprint(hand_seed(SECRET, number))
        assert match.revealed_seed is None and match.finished_seed(number) is None  # still secret
        dealt = match.game
        match = play_out(match, rnd)
        revealed = match.revealed_seed
        assert revealed is not None and hashlib.sha256(revealed.encode()).hexdigest() == at_deal
        assert match.finished_seed(number) == revealed
        # The revealed seed rebuilds the deal: the same cards, in the same places.
        rebuilt, _ = new_hand(dealt.players, dealt.rules, revealed,
                              None if number == 1 else dealt.dealer)
        assert rebuilt == dealt
        fingerprints.append(at_deal)
        match, _ = match.next_hand()
        assert match.finished_seed(number) == revealed and match.finished_seed(number + 1) is None
    assert len(set(fingerprints)) == 3


def test_the_tables_of_a_sealed_match_deal_apart():
    rules = OFFICIAL.with_(tables=2, match_end="hands")
    players = [f"p{i}" for i in range(8)]
    one, _ = Match.start(players, rules, SECRET, table=1)
    two, _ = Match.start(players, rules, SECRET, table=2)
    assert one.game.seed == hand_seed(SECRET, 1, 1) and two.game.seed == hand_seed(SECRET, 1, 2)
    assert one.fingerprint != two.fingerprint


def test_a_sealed_match_round_trips_through_json():
    match, _ = Match.start(["ana", "bo"], seed=SECRET)
    again = Match.from_json(match.to_json())
    assert again == match and again.fingerprint == match.fingerprint
