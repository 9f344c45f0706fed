"""Typed cards -> the spec notation: the one parser behind the console, Telegram ``/play`` and
Discord ``/uno play``. Reading only: whether the play is legal is the coordinator's business.

What a player may type, in any case, with half- or full-width characters (NFKC):

- codes: ``R5``, ``RS`` (Skip), ``RR`` (Reverse), ``R+2``, ``W``, ``W+4``;
- English names: ``red 5``, ``red five``, ``red skip``, ``red reverse``, ``red draw two``,
  ``red +2``, ``wild``, ``wild draw four``, ``+4``, ``wd4``, ``w4``;
- Chinese, as cards are shown (``bot/i18n/labels.py``): ``黄2``, ``黄 2``, ``红色反转``,
  ``蓝色跳过``, ``黄色+2``, ``万能牌``, ``王牌+4``, ``+4``; and as people say them: ``红五``,
  ``黄禁``, ``黄跳``, ``绿反``;
- where a hand is shown with numbers (the console), a card's position in it: ``1``;
- after the cards: a colour for a wild (``W 红``, ``5 blue``), a seat for a 7 under 7-0
  (a seat number or a name), and ``uno`` to declare UNO with the play.

Several cards may be typed at once (``5 5``, ``2 6``, ``G3 G3``).

How bare numbers are read (they may be hand positions, card numbers or seat numbers):

1. A number right after a card typed by name or code is a seat (``R7 2``: swap with seat 2):
   whoever names cards by name does not also count positions in the hand.
2. Otherwise the bare numbers of a play are read together, one way for all of them:
   as hand positions when every one is a distinct position of the shown hand; else as the
   number on the card (``5 5``: two fives) when the hand holds that many; else the play is
   refused, naming the first number that fits neither.
3. With hand positions, a last number is a seat only when the cards before it hold a 7 and
   that position is not another card of the same rank: ``2 6`` where 2 and 6 are both 7s is
   two cards, ``2 3`` where only 2 is a 7 is "the 7 at 2, swap with seat 3". A number too
   large for both the hand and the table is refused as a card.

A colour on its own (``blue``, ``蓝``, ``b``) parses as a play without cards: the frontend
either completes the play it was asked a colour for (``Question``) or treats it as the
dealer naming the colour of a Wild turned first. A seat on its own (``2``, ``Ana``) answers a
7 refused for want of a swap target the same way.

Where the frontend does not know the seats (Telegram ``/play``, Discord ``/uno play``:
``seats=None``), a swap target is passed on as typed (``R7 2``, ``R7 bot ana``) and the
coordinator finds the seat with ``find_seat``, against the game's seats.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine.cards import Card, Color, Rank, full_deck
from bot.engine.errors import BadAction
from bot.i18n import LOCALES, card_label, color_label

from .views import N_, Text

UNO_WORDS = frozenset({"uno", "uno!"})

_COLOR_WORDS: dict[str, Color] = {
    "r": Color.RED, "red": Color.RED, "红": Color.RED,
    "g": Color.GREEN, "green": Color.GREEN, "绿": Color.GREEN,
    "b": Color.BLUE, "blue": Color.BLUE, "蓝": Color.BLUE,
    "y": Color.YELLOW, "yellow": Color.YELLOW, "黄": Color.YELLOW,
}
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_CHINESE_NUMBERS = "零一二三四五六七八九"  # 红五 as well as 红5
_ACTION_WORDS: dict[Rank, tuple[str, ...]] = {
    Rank.SKIP: ("skip", "s", "跳过", "禁止", "跳", "禁"),
    Rank.REVERSE: ("reverse", "r", "反转", "转向", "反向", "反"),
    Rank.DRAW_TWO: ("draw two", "draw 2", "+2", "d2", "plus two", "加二", "加2"),
}
_WILD_WORDS: dict[Rank, tuple[str, ...]] = {
    Rank.WILD: ("w", "wild", "wild card", "万能", "万能牌", "变色", "变色牌"),
    Rank.WILD_DRAW_FOUR: ("w+4", "w4", "wd4", "+4", "wild draw four", "wild draw 4", "wild +4",
                          "wild four", "draw four", "王牌+4", "万能+4", "万能牌+4", "王牌加四"),
}
# The longest phrase, in words ("wild draw four", "red draw two" + a spare): how far to look.
_MAX_WORDS = 4
_SPLIT = re.compile(r"[\s,;、]+")


def normalize(text: str) -> str:
    """Full-width letters, digits and spaces to plain ones (NFKC), lower case."""
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _key(phrase: str) -> str:
    """Phrases are looked up without spaces: "red 5", "red5" and "黄 2" alike."""
    return "".join(normalize(phrase).split())


def _build_card_names() -> dict[str, Card]:
    names: dict[str, Card] = {}
    colors = {color: [w for w, c in _COLOR_WORDS.items() if c is color] for color in Color}
    for locale in LOCALES:  # the names shown to players, in every language we speak
        for color in Color:
            colors[color].append(normalize(color_label(color, locale)))
    for card in set(full_deck()):
        forms = [str(card)] + [card_label(card, locale) for locale in LOCALES]
        if card.color is None:
            forms += _WILD_WORDS[card.rank]
        else:
            for color_word in colors[card.color]:
                if card.rank.is_number:
                    number = int(card.rank.value)
                    forms += [color_word + card.rank.value, color_word + " " + _NUMBER_WORDS[number],
                              color_word + _CHINESE_NUMBERS[number]]
                else:
                    forms += [color_word + " " + word for word in _ACTION_WORDS[card.rank]]
        for form in forms:
            names.setdefault(_key(form), card)
    return names


_CARD_NAMES: dict[str, Card] | None = None


def _card_names() -> dict[str, Card]:
    global _CARD_NAMES
    if _CARD_NAMES is None:  # built on first use: the catalogues load lazily
        _CARD_NAMES = _build_card_names()
    return _CARD_NAMES


def _color_words() -> dict[str, Color]:
    words = dict(_COLOR_WORDS)
    for locale in LOCALES:
        for color in Color:
            words.setdefault(_key(color_label(color, locale)), color)
    return words


def card_named(phrase: str) -> Card | None:
    """One card by code or name ("R+2", "red draw two", "红色+2"); None if it names none."""
    key = _key(phrase)
    found = _card_names().get(key)
    if found is not None:
        return found
    try:
        return Card.parse(key)
    except BadAction:
        return None


def color_named(word: str) -> Color | None:
    """"red", "r", "红", "红色", "Ｒｅｄ" -> Color.RED; None for anything else."""
    return _color_words().get(_key(word))


@dataclass(frozen=True)
class TypedPlay:
    """What a player typed, in the spec notation of ``PlayCards``. ``cards`` may be empty when
    only a colour was typed (the answer to "which colour?")."""

    cards: tuple[str, ...] = ()
    color: str | None = None  # R G B Y
    swap_with: str | None = None  # a seat's user id
    declare_uno: bool = False

    def with_color(self, answer: TypedPlay) -> TypedPlay | None:
        """This play (refused for want of a colour) completed by a colour typed on its own;
        None when the answer is not just a colour."""
        if answer.cards or answer.color is None or answer.swap_with is not None:
            return None
        return replace(self, color=answer.color, declare_uno=self.declare_uno or answer.declare_uno)

    def with_target(self, words: Sequence[str], seats: Sequence[tuple[str, str]] | None = None) -> TypedPlay | None:
        """This play (a 7 refused for want of a swap target) completed by a seat typed on its
        own: a seat number or a name, "uno" allowed beside it. None when the words are not one
        seat: a card, a colour, a name no seat has (with ``seats``), or nothing."""
        raw = [w for w in _SPLIT.split(unicodedata.normalize("NFKC", " ".join(words)).strip()) if w]
        named = [w for w in raw if w.casefold() not in UNO_WORDS]
        if not named:
            return None
        text = " ".join(named)
        if not text.isdigit() and (isinstance(parse_play(text), TypedPlay) or color_named(text) is not None):
            return None  # a card or a colour: another play, not an answer
        if seats is None:
            target: str | NotationError = text  # the coordinator finds the seat
        else:
            target = find_seat(text, seats)
        if isinstance(target, NotationError):
            return None
        return replace(self, swap_with=target, declare_uno=self.declare_uno or len(named) < len(raw))


@dataclass(frozen=True)
class Question:
    """A play refused for want of one choice, a colour (a wild) or a swap target (a 7), that
    the player's next input may answer on its own (``blue``, ``2``, ``Ana``)."""

    play: TypedPlay
    wants: str  # "color" or "target"

    @classmethod
    def asked_by(cls, asks: str | None, play: TypedPlay) -> Question | None:
        """The question a refusal of ``play`` asks (its ``Reply.asks``; None: none)."""
        return cls(play, asks) if asks in ("color", "target") else None

    def answered_by(self, words: Sequence[str],
                    seats: Sequence[tuple[str, str]] | None = None) -> TypedPlay | None:
        """The play completed by ``words`` when they answer the question alone, else None (the
        words are read as they would be without a question)."""
        if self.wants == "target":
            return self.play.with_target(words, seats)
        answer = parse_play(words, None, seats)
        return self.play.with_color(answer) if isinstance(answer, TypedPlay) else None


@dataclass(frozen=True)
class NotationError:
    """The text could not be read; ``text`` names what was wrong. Nothing was played."""

    text: Text


def parse_play(typed: str | Sequence[str], hand: Sequence[Card] | None = None,
               seats: Sequence[tuple[str, str]] | None = None) -> TypedPlay | NotationError:
    """Read cards, then optionally a colour, a swap target and "uno".

    ``hand``: the hand in the order shown with numbers (1..n), or None where numbers are not
    shown (then a bare number is a seat after a 7, else not understood). ``seats``: (user id,
    name) in seat order (numbers 1..n), or None where the frontend does not know them: a swap
    target is then passed on as typed, for the coordinator to find."""
    text = typed if isinstance(typed, str) else " ".join(typed)
    words = [w for w in _SPLIT.split(normalize(text)) if w]
    raw_words = [w for w in _SPLIT.split(unicodedata.normalize("NFKC", text).strip()) if w]
    items: list[tuple[str, object]] = []  # ("card", Card) | ("number", str) | ("seat", uid)
    color: Color | None = None
    declare = False
    position = 0
    while position < len(words):
        word = words[position]
        if word in UNO_WORDS:
            declare = True
            position += 1
            continue
        card, taken = _longest_card(words, position)
        if card is not None:
            items.append(("card", card))
            position += taken
            continue
        if word.isdigit() and word.isascii():
            items.append(("number", word))
            position += 1
            continue
        found_color = color_named(word)
        if found_color is not None:
            color = found_color
            position += 1
            continue
        if items and (seats is None or seats) and _has_seven(items, hand):
            # A name may hold spaces ("Bot Ana"): it takes the rest of the line, "uno" aside.
            rest = [w for w in raw_words[position:] if w.casefold() not in UNO_WORDS]
            declare = declare or len(rest) < len(raw_words) - position
            target = _seat(" ".join(rest), seats)
            if isinstance(target, NotationError):
                return target
            items.append(("seat", target))
            break
        shown = raw_words[position] if position < len(raw_words) else word
        if items:  # after a card: a word that is no colour, seat or "uno"
            return NotationError(Text(N_("I don't understand \"{word}\" in that play."), {"word": shown}))
        return _unknown(shown)
    resolved = _resolve(items, hand, seats)
    if isinstance(resolved, NotationError):
        return resolved
    cards, swap = resolved
    return TypedPlay(cards=tuple(str(c) for c in cards), color=color.value if color else None,
                     swap_with=swap, declare_uno=declare)


def _longest_card(words: Sequence[str], start: int) -> tuple[Card | None, int]:
    """The card named by the most words from ``start`` on ("red draw two" before "red")."""
    if words[start].isdigit():
        return None, 0  # a bare number is a position or a seat, read later
    for length in range(min(_MAX_WORDS, len(words) - start), 0, -1):
        phrase = words[start:start + length]
        if any(w in UNO_WORDS for w in phrase):
            continue
        if length > 1 and phrase[-1].isdigit() and card_named("".join(phrase[:-1])) is not None:
            continue  # "W 4": a wild and a number, not "W4"
        card = card_named("".join(phrase))
        if card is not None:
            return card, length
    return None, 0


def _has_seven(items: Sequence[tuple[str, object]], hand: Sequence[Card] | None) -> bool:
    for kind, value in items:
        if kind == "card" and isinstance(value, Card) and value.rank is Rank.SEVEN:
            return True
        if kind == "number" and hand is not None and isinstance(value, str):
            index = int(value) - 1
            if 0 <= index < len(hand) and hand[index].rank is Rank.SEVEN:
                return True
    return False


def _seat(text: str, seats: Sequence[tuple[str, str]] | None) -> str | NotationError:
    """The seat ``text`` names, or the text itself where the seats are not known here."""
    return text if seats is None else find_seat(text, seats)


def _resolve(items: list[tuple[str, object]], hand: Sequence[Card] | None,
             seats: Sequence[tuple[str, str]] | None) -> tuple[list[Card], str | None] | NotationError:
    """Turn the bare numbers into cards or a seat (the rules in the module's docstring)."""
    swap: str | None = None
    if items and items[-1][0] == "seat":
        swap = str(items.pop()[1])
    # Rule 1: a number after a named card is a seat (only one, and last: a 7 has one target).
    named_first = next((i for i, (kind, _) in enumerate(items) if kind == "card"), None)
    after_named = [i for i, (kind, _) in enumerate(items)
                   if kind == "number" and named_first is not None and i > named_first]
    if after_named:
        if swap is not None or len(after_named) > 1 or after_named[0] != len(items) - 1:
            return _unknown(str(items[after_named[-1]][1]))
        target = _seat(str(items.pop()[1]), seats)
        if isinstance(target, NotationError):
            return target
        swap = target
    numbers = [str(value) for kind, value in items if kind == "number"]
    named = [value for kind, value in items if kind == "card" and isinstance(value, Card)]
    if not numbers:
        return named, swap
    if hand is None:
        return _unknown(numbers[0])
    if swap is None and seats and not named and len(numbers) >= 2:
        # Rule 3: the last number is a seat when the cards before it hold a 7 and it is not
        # another card of their rank.
        head = _numbers_as_cards(numbers[:-1], [], hand)
        if head is not None and any(c.rank is Rank.SEVEN for c in head):
            last = int(numbers[-1]) - 1
            head_positions = {int(n) - 1 for n in numbers[:-1]}
            same_rank = (0 <= last < len(hand) and last not in head_positions
                         and hand[last].rank is head[0].rank)
            if not same_rank and 0 <= last < len(seats):
                return head, seats[last][0]
    cards = _numbers_as_cards(numbers, named, hand)
    if cards is None:
        return _bad_number(numbers, hand)
    return cards, swap


def _unknown(word: str) -> NotationError:
    return NotationError(Text(N_("I do not know the card \"{card}\"."), {"card": word}))


def _numbers_as_cards(numbers: Sequence[str], named: Sequence[Card],
                      hand: Sequence[Card]) -> list[Card] | None:
    """All numbers as distinct hand positions, else all as card numbers the hand holds."""
    positions = [int(n) - 1 for n in numbers]
    if not named and all(0 <= p < len(hand) for p in positions) and len(set(positions)) == len(positions):
        return [hand[p] for p in positions]
    left = list(hand)
    for card in named:
        if card in left:
            left.remove(card)
    cards = list(named)
    for number in numbers:
        same = [c for c in left if c.rank.is_number and c.rank.value == number]
        if not same:
            return None
        # The same card as one already taken, if there is one: "5 5" with R5 R5 B5 -> R5 R5.
        pick = next((c for c in same if c in cards), same[0])
        left.remove(pick)
        cards.append(pick)
    return cards


def _bad_number(numbers: Sequence[str], hand: Sequence[Card]) -> NotationError:
    seen: set[str] = set()
    for number in numbers:
        if number in seen:
            return NotationError(Text(N_("You named card {number} twice: there is no card to spare in your hand."), {"number": number}))
        seen.add(number)
        index = int(number) - 1
        holds_rank = any(c.rank.is_number and c.rank.value == number for c in hand)
        if not 0 <= index < len(hand) and not holds_rank:
            return NotationError(Text(N_("There is no card {number} in your hand."), {"number": number}))
    return NotationError(Text(N_("There is no card {number} in your hand."), {"number": numbers[-1]}))


def find_seat(word: str, seats: Sequence[tuple[str, str]]) -> str | NotationError:
    """A seat by number (as listed at the table) or by name (case-insensitive, unique prefix)."""
    word = unicodedata.normalize("NFKC", word).strip()
    if word.isascii() and word.isdigit():
        index = int(word) - 1
        if 0 <= index < len(seats):
            return seats[index][0]
        return NotationError(Text(N_("There is no seat {number} at the table."), {"number": word}))
    low = word.casefold()
    exact = [uid for uid, name in seats if low in (name.casefold(), uid.casefold())]
    by_word = [uid for uid, name in seats if low in name.casefold().split()]
    by_prefix = [uid for uid, name in seats
                 if any(part.startswith(low) for part in (name.casefold(), *name.casefold().split()))]
    for found in (exact, by_word, by_prefix):
        if len(found) == 1:
            return found[0]
        if found:  # "bot" among Bot Ana, Bot Bo: say so, not "no player called bot"
            return NotationError(Text(SEVERAL_SEATS, {
                "name": word, "players": [name for uid, name in seats if uid in found]}))
    return NotationError(Text(N_("There is no player called \"{name}\" at the table."), {"name": word}))


SEVERAL_SEATS = N_("\"{name}\" fits more than one player ({players}): type more of the name, or "
                   "the seat's number.")


# The notation for help texts, in every frontend.
NOTATION_HELP = N_("Cards: R5 (Red 5), RS (Red Skip), RR (Red Reverse), R+2 (Red Draw Two), "
                   "W (Wild), W+4 (Wild Draw Four); names work too: \"red 5\", \"red reverse\", "
                   "\"wild draw four\", +4, 黄2, 红色反转, 万能牌. A wild takes its colour after it: "
                   "W red, W+4 蓝. Under 7-0 a 7 takes the seat to swap with: R7 2, R7 Ana.")
HAND_NUMBER_HELP = N_("Or the card's number in your hand as shown: 1, or 2 6 for two cards.")
