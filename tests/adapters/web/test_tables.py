"""What both web pages show of a lobby: its players, each bot with its level, in the words the
pages share."""

from __future__ import annotations

from adapters.web.views import snapshot_json
from adapters.web.watch import spectator_json
from bot.coordinator import presenter
from bot.coordinator.ports import ChatKey, GameRecord, Seat
from bot.coordinator.snapshot import PlayerSnapshot
from bot.coordinator.spectate import SpectatorSnapshot

CHAT = ChatKey("telegram", "-100")


def record(status: str) -> GameRecord:
    return GameRecord(game_id="g1", chat=CHAT, status=status, creator="u1",
                      seats=[Seat("u1", "Ana"), Seat("ai1", "Bot Bo", ai="hard")], rules={})


def test_the_lobby_names_each_bots_level_in_the_readers_language():
    lobby = presenter.lobby_view(record("lobby"), "zh_CN")
    player = PlayerSnapshot(game_id="g1", chat=CHAT, status="lobby", version=1, locale="zh_CN",
                            name="Ana", lobby=lobby, table=None, hand=None)
    watcher = SpectatorSnapshot(game_id="g1", chat=CHAT, status="lobby", version=1,
                                locale="zh_CN", lobby=lobby, table=None, race=())
    for data in (snapshot_json(player, 0.0), spectator_json(watcher, 1)):
        assert data["lobby"] == {"players": ["Ana", "Bot Bo · 困难"], "players_text": "Ana、Bot Bo · 困难"}
        assert data["labels"]["lobby"] == "牌局还没开始。玩家：{players}"  # the shared label


def test_what_waits_at_the_table_is_the_narrators_lines_for_the_spectators():
    """A penalty and the answers the rules allow, and who may be called out: as every table
    words them, in the chat's language; a finished hand has none."""
    from dataclasses import replace

    from adapters.web.tables import table_json
    from tests.render.test_text import table

    view = table("zh_CN", pending_draw=4, challenge_possible=True, catchable=("u3",))
    assert table_json(view, "zh_CN", over=False)["notes"] == [
        "⚠️ 罚牌待定：P1须摸4张牌，除非质疑。", "⚔️ P1可以质疑这张王牌+4。", "❗ 没喊UNO：P3。任何人都可以抓。"]
    stacking = replace(view, locale="en", challenge_possible=False, can_stack=True, catchable=())
    assert table_json(stacking, "en", over=False)["notes"] == [
        "⚠️ Penalty waiting: P1 draws 4 cards unless they stack on it."]
    assert table_json(view, "zh_CN", over=True)["notes"] == []


def test_a_wild_turned_first_says_what_its_colour_is_by_the_rules_on_both_pages():
    from dataclasses import replace

    from adapters.web.tables import table_json
    from bot.engine.cards import Card
    from tests.render.test_text import table

    first = replace(table("en"), top=Card.parse("W"), color=None)
    assert table_json(replace(first, color_pending=True), "en", over=False)["color_label"] == "not named yet"
    assert table_json(first, "en", over=False)["color_label"] == "free choice"
    assert table_json(table("en"), "en", over=False)["color_label"] == "Green"
