"""Varying an attacker's (or a target's) points (issue 18): an attacker has one of focus,
fury or force, so ``--vary attackers.0.focus`` over a fury card used to leave the card's
fury in place (focus 0 reported the card's fury spent) or refuse every other value with
a message about the card's fury. Rule: the path must name the key the table holds; varying
another is refused with one line naming the key to vary, and varying that key gives each
point its value."""

from __future__ import annotations

import pytest

from mathhammer import InputError, cli, sweep
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.studies.grids import grid
from mathhammer.studies.matrices import matrix

#: The bundled warlock's points are fury, as an attacker (5) and as a target (5).
WARLOCK_VS_SOLO = """\
[target]
card = "solo"

[[attackers]]
card = "warlock"

[simulation]
trials = 20000
seed = 5
"""


@pytest.fixture(scope="module")
def scenario():
    return loads_scenario(WARLOCK_VS_SOLO)


def test_varying_focus_over_a_fury_attacker_names_the_key_to_vary(scenario):
    assert scenario.attackers[0].fury == 5 and scenario.attackers[0].focus == 0
    for path, right in (("attackers.0.focus", "attackers.0.fury"),
                        ("attackers.Warlock.force", "attackers.Warlock.fury"),
                        ("attackers[0].focus", "attackers[0].fury")):
        with pytest.raises(InputError) as info:
            sweep(scenario, {path: [0, 1, 2]}, trials=1000, progress=False)
        message = str(info.value)
        assert info.value.key == "vary" and info.value.value == path and "\n" not in message
        assert f"points are fury (5), not {path.rsplit('.', 1)[1]}: vary {right}" in message


def test_the_varied_fury_is_what_each_point_has_and_spends(scenario):
    params, points = grid(scenario, {"attackers.0.fury": [0, 1, 3]})
    assert [(v, s.attackers[0].fury, s.attackers[0].focus) for v, s in points] == [
        ((0,), 0, 0), ((1,), 1, 0), ((3,), 3, 0)]
    frame = sweep(scenario, {"attackers.0.fury": [0, 1, 3]}, trials=20_000, seed=5,
                  progress=False)
    spent = frame[frame["metric"] == "spent:Warlock"].set_index("attackers.0.fury")["value"]
    # no fury: nothing to spend (the bug reported the card's 5 here); never more than it has
    assert spent[0] == 0.0
    assert 0 < spent[1] <= 1 and spent[1] < spent[3] <= 3
    kill = frame[frame["metric"] == "kill"].set_index("attackers.0.fury")["value"]
    assert kill[0] < kill[1] < kill[3]  # each point fought with its own fury


def test_a_target_spends_focus_or_fury_so_is_varied_by_its_own_key():
    with pytest.raises(InputError, match=r"Warlock's points are fury \(5\), not focus: vary "
                       r"target.fury \(for heavy_warjack vs warlock\)"):
        matrix(["heavy_warjack"], ["warlock"], vary={"target.focus": [0, 1]}, trials=1000,
               progress=False)
    frame = matrix(["heavy_warjack"], ["warlock"], vary={"target.fury": [0, 2]},
                   trials=20_000, seed=2, progress=False)
    kill = frame[frame["metric"] == "kill"].set_index("target.fury")["value"]
    assert kill[0] > kill[2]  # fury prevents damage: the varied value is the one used


def test_an_attacker_without_points_takes_any_of_them(scenario):
    # a table with none of the three (the solo card) may be given any of them
    plain = loads_scenario(WARLOCK_VS_SOLO.replace('card = "warlock"', 'card = "solo"'))
    assert (plain.attackers[0].focus, plain.attackers[0].fury) == (0, 0)
    _, points = grid(plain, {"attackers.0.fury": [2]})
    assert points[0][1].attackers[0].fury == 2


def test_the_cli_says_it_in_one_line(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(WARLOCK_VS_SOLO, encoding="utf-8")
    assert cli.main(["sweep", str(path), "--vary", "attackers.0.focus=0:3", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("mathhammer: error: --vary: Warlock's points are fury (5), not "
                          "focus: vary attackers.0.fury (got 'attackers.0.focus')")
