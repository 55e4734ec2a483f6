"""The rulebook shipped in `docs/rules.md` against the engine that quotes it.

Every rule id the engine can name (a house-rule switch's id in `rules.RULE_OF`, or an id
written into the engine's source, as every refusal's `msg(..., "T14")` is) must have an
anchor in the rulebook, so that `docs/rules.md#T14` always leads somewhere; every anchor
is defined once and sits right at its rule; the round table and the switch names the
rulebook prints are the engine's own.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from toonerville.engine.rules import ROUND_TABLE, RULE_OF, Rules

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "docs" / "rules.md"
ENGINE = ROOT / "toonerville"
RULE_ID = re.compile(r"[TH][1-9][0-9]?a?")
ANCHOR = re.compile(r'<a id="([^"]*)"></a>')


def rulebook() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


def anchors() -> list[str]:
    return ANCHOR.findall(rulebook())


def source_rule_ids() -> dict[str, str]:
    """Every string literal in the engine's source that is a rule id, with one file
    that uses it. The refusals pass their rule as such a literal (`msg(text, "T14")`,
    or a helper called the same way), whatever line the call is spread over."""
    found: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and RULE_ID.fullmatch(node.value)):
                found.setdefault(node.value, str(path.relative_to(ROOT)))
    return found


def test_the_source_scan_finds_the_rule_ids_of_refusals() -> None:
    # the scan must see the ids refusals are built with, or the next test proves nothing
    ids = source_rule_ids()
    assert {"T4", "T14"} <= set(ids)
    assert len(ids) > len(set(RULE_OF.values()))


def test_every_anchor_is_unique() -> None:
    repeated = [name for name, n in Counter(anchors()).items() if n > 1]
    assert not repeated, f"anchors defined more than once in docs/rules.md: {repeated}"


def test_every_anchor_is_a_rule_id_placed_at_its_rule() -> None:
    text = rulebook()
    for match in ANCHOR.finditer(text):
        name = match.group(1)
        assert RULE_ID.fullmatch(name), f"anchor {name!r} is not a rule id"
        following = text[match.end():].lstrip()
        assert following.startswith(f"**{name} "), (
            f"anchor {name} is not followed by the rule it names")


def test_every_rule_id_is_stated_once() -> None:
    stated = Counter(re.findall(r"^\*\*([TH][0-9]+a?) ", rulebook(), flags=re.MULTILINE))
    assert [name for name, n in stated.items() if n > 1] == []
    assert set(stated) == set(anchors())


def test_every_switch_of_the_rules_has_an_anchor() -> None:
    missing = sorted(set(RULE_OF.values()) - set(anchors()))
    assert not missing, f"house rules with no anchor in docs/rules.md: {missing}"


def test_every_rule_id_in_the_engine_has_an_anchor() -> None:
    have = set(anchors())
    missing = {name: where for name, where in source_rule_ids().items() if name not in have}
    assert not missing, f"rule ids the engine names but docs/rules.md lacks: {missing}"


def _rule_text(name: str) -> str:
    """The paragraph of one rule, from its anchor to the next blank line."""
    text = rulebook()
    start = text.index(f'<a id="{name}"></a>')
    end = text.find("\n\n", start)
    return text[start:end if end >= 0 else len(text)]


@pytest.mark.parametrize("rule", sorted(set(RULE_OF.values())))
def test_each_house_rule_names_its_engine_switches(rule: str) -> None:
    fields = set(Rules.__dataclass_fields__)
    named = set(re.findall(r"`([a-z0-9_]+)`", _rule_text(rule).split("*In the engine:*")[-1]))
    assert named <= fields, f"{rule} names switches Rules does not have: {named - fields}"
    assert named == {f for f, r in RULE_OF.items() if r == rule}


def test_T7_the_round_table_is_the_engines() -> None:
    rows = re.findall(r"^\| (\d+) \| (\d+) \| ([^|]+) \|$", rulebook(), flags=re.MULTILINE)
    assert [int(r) for r, _, _ in rows] == list(range(1, len(ROUND_TABLE) + 1))
    for (_, deal, contract), (engine_deal, engine_contract) in zip(rows, ROUND_TABLE,
                                                                   strict=True):
        runs = re.search(r"(\d+) runs?\b", contract)
        sets = re.search(r"(\d+) sets?\b", contract)
        assert int(deal) == engine_deal
        assert (int(runs.group(1)) if runs else 0) == engine_contract.runs
        assert (int(sets.group(1)) if sets else 0) == engine_contract.sets


def test_every_refusal_points_to_its_rule_in_the_rulebook() -> None:
    from toonerville import Game, IllegalActionError

    game = Game.new(players=3, seed=1)
    err = game.refusal("1: discard R7" if game.current != 1 else "2: discard R7")
    assert isinstance(err, IllegalActionError) and err.rule_link is not None
    anchor = err.rule_link.split("#")[1]
    text = (Path(__file__).resolve().parent.parent / err.rule_link.split("#")[0]).read_text()
    assert re.search(rf'<a id="{anchor}"></a>', text)
