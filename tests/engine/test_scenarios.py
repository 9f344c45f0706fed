"""Every scenario file in tests/engine/scenarios is replayed through the replay CLI's code
(and a couple through the CLI itself); a mismatch names the first action that diverged."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.scenario import MalformedScenario, load_position, run, state_to_spec, step

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def first_divergence(data: dict) -> str:
    """Replays step by step and describes the first action whose result differs."""
    state = load_position(data)
    expected = data["expected"]["results"]
    for i, raw in enumerate(data.get("actions", [])):
        state, result = step(state, raw)
        if i >= len(expected) or result != expected[i]:
            want = expected[i] if i < len(expected) else "nothing"
            return f"action #{i} {raw}: got {result}, expected {want}; state now {state_to_spec(state)}"
    return "all results match; the final state differs"


def test_there_are_enough_scenarios():
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "expected" in data, f"{path.name} has no expected output"
    got = run(data)
    if got != data["expected"]:
        pytest.fail(f"{path.name}: {first_divergence(data)}\n got state {got['state']}\n"
                    f" expected   {data['expected']['state']}")


def test_every_error_code_is_exercised():
    from bot.engine.errors import ERROR_CODES

    seen = set()
    for path in SCENARIOS:
        for result in json.loads(path.read_text(encoding="utf-8"))["expected"]["results"]:
            seen.add(result.get("error"))
    assert set(ERROR_CODES) <= seen


def test_every_rule_field_is_exercised():
    from bot.engine.rules import RULE_FIELDS

    seen = set()
    for path in SCENARIOS:
        rules = json.loads(path.read_text(encoding="utf-8")).get("rules") or {}
        seen |= set(rules) - {"preset"}
    # target_score only matters to a Match; late_join to add_player (tests/engine/test_late_join.py)
    assert set(RULE_FIELDS) - {"target_score", "late_join"} <= seen


def _cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.engine.replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_cli_prints_the_expected_output():
    path = next(p for p in SCENARIOS if p.stem == "wd4_challenge_bluff_caught")
    proc = _cli(path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(path.read_text())["expected"]


@pytest.mark.slow
def test_cli_exits_0_with_refusals():
    path = next(p for p in SCENARIOS if p.stem == "bad_action")
    proc = _cli(path)
    assert proc.returncode == 0
    assert all(not r["ok"] for r in json.loads(proc.stdout)["results"])


@pytest.mark.parametrize("content", [
    "{not json",
    '["a list"]',
    '{"players": ["ana", "bo"], "hands": {"ana": ["R1"], "bo": ["G2"]}, "draw_pile": []}',
    '{"players": ["ana"], "hands": {"ana": ["R1"]}, "discard": ["R3"]}',
    '{"players": ["ana", "bo"], "hands": {"ana": ["Q1"], "bo": []}, "discard": ["R3"]}',
    '{"players": ["ana", "bo"], "hands": {"ana": [], "bo": []}, "discard": ["R3"], "rules": {"bogus": 1}}',
    '{"players": ["ana", "bo"], "hands": {"ana": [], "bo": []}, "discard": ["R3"], "actions": 5}',
    '{"players": ["ana", "bo"], "hands": {"ana": []}, "discard": ["R3"]}',
    '{"players": ["a", "b", "c", "d"], "hands": {"a": [], "b": [], "c": [], "d": []}, "discard": ["R3"],'
    ' "rules": {"teams": true, "team_size": 3}}',
    '{"players": ["ana", "bo"], "hands": {"ana": [], "bo": []}, "discard": ["R3"],'
    ' "rules": {"first_wild": "later"}}',
])
@pytest.mark.slow
def test_cli_rejects_a_malformed_file(tmp_path: Path, content: str):
    path = tmp_path / "bad.json"
    path.write_text(content)
    proc = _cli(path)
    assert proc.returncode == 2
    assert proc.stderr.strip() and not proc.stdout


@pytest.mark.slow
def test_cli_missing_file(tmp_path: Path):
    proc = _cli(tmp_path / "nope.json")
    assert proc.returncode == 2 and "nope.json" in proc.stderr


def test_output_has_exactly_the_spec_keys():
    spec_keys = {"hands", "top", "color", "current", "direction", "pending_draw", "draw_pile",
                 "winner", "points"}
    for path in SCENARIOS:
        out = run(json.loads(path.read_text(encoding="utf-8")))
        assert set(out) == {"results", "state"}
        assert set(out["state"]) == spec_keys, path.name
        assert isinstance(out["state"]["draw_pile"], int)
        for result in out["results"]:
            assert result == {"ok": True} or (set(result) == {"ok", "error"} and not result["ok"])


@pytest.mark.parametrize(("field", "value", "message"), [
    ("players", [1, 2], "distinct players"),
    ("direction", "x", "direction is 1 or -1"),
    ("current", 5, "is not playing"),
    ("pending_draw", "2", "pending_draw is a count"),
])
def test_a_wrongly_typed_field_is_refused_by_name(field: str, value: object, message: str):
    """The same words compiled or not: the file's values are checked before they are typed."""
    data = {"players": ["ana", "bo"], "hands": {"ana": ["R1"], "bo": ["G2"]},
            "discard": ["R3"], "color": "R", "current": "ana", field: value}
    with pytest.raises(MalformedScenario, match=message):
        load_position(data)
