"""The sealed deck in words: the table's line committing to a hand's shuffle (its seed's
SHA-256, shown from the deal on), the hand-end line revealing the seed, and ``/log``'s list.
Only a finished hand's seed is ever put in a line; the match's secret never is."""

from __future__ import annotations

from functools import lru_cache

from bot.engine import seal

from .views import N_, Text

# A fingerprint as people read it: upper-case hex in groups of four, as key fingerprints are
# shown. Grouped, no token of it reads as a card ("B1" is a card; "B1E9" is not).
GROUP = 4
SHORT_GROUPS = 4  # on the table: the first 16 hex digits


def grouped(fingerprint: str, groups: int | None = None) -> str:
    """``fingerprint`` in upper-case groups of four; only the first ``groups`` when given."""
    digits = fingerprint.upper()[: GROUP * groups if groups else None]
    return " ".join(digits[i:i + GROUP] for i in range(0, len(digits), GROUP))


def seal_line(fingerprint: str | None) -> Text | None:
    """The table's line committing to the hand's shuffle, from the hand's ``fingerprint``
    (None: an unsealed, older game)."""
    return None if fingerprint is None else _seal_line(fingerprint)


@lru_cache(maxsize=512)
def _seal_line(fingerprint: str) -> Text:
    # Every table of a hand shows the same line: made once per hand being played (a Text is
    # never changed), for as many hands as a busy process plays at once.
    return Text(N_("🔒 Deck sealed · SHA-256 {fingerprint}…"),
                {"fingerprint": grouped(fingerprint, SHORT_GROUPS)})


def revealed_line(match) -> Text:
    """The hand-end line revealing the seed of the hand just won, with its fingerprint in full
    (anyone can check that the seed's SHA-256 is what the table showed at the deal)."""
    seed, fingerprint = match.revealed_seed, match.fingerprint
    if seed is None or fingerprint is None:
        return Text(N_("(This game began before decks were sealed: it has no seed to show.)"))
    return Text(N_("🔓 Seed of hand {hand}: {seed}\nIts SHA-256, sealed at the deal: {fingerprint}"),
                {"hand": match.hand_number, "seed": seed, "fingerprint": grouped(fingerprint)})


def seal_log_lines(match, kept: int = 3) -> tuple[Text, ...]:
    """For ``/log``: the hand not over (its fingerprint only) and the seeds of the last
    ``kept`` finished hands of the match, newest last. Empty for an unsealed game."""
    if not match.sealed:
        return ()
    lines: list[Text] = [Text(N_("Sealed decks: each hand's SHA-256 is shown at the deal, its "
                                 "seed once the hand is over."))]
    first = max(1, match.hand_number - kept + (1 if match.hand_over else 0))
    for number in range(first, match.hand_number + 1):
        seed = match.finished_seed(number)
        if seed is None:
            lines.append(Text(N_("Hand {hand} (not over): SHA-256 {fingerprint}"),
                              {"hand": number, "fingerprint": grouped(match.fingerprint)}))
        else:
            lines.append(Text(N_("Hand {hand}: seed {seed}, SHA-256 {fingerprint}"),
                              {"hand": number, "seed": seed,
                               "fingerprint": grouped(seal.fingerprint(seed))}))
    return tuple(lines)
