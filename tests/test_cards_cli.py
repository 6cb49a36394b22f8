"""`mathhammer cards` (weapons, points, folders), `cards show NAME` (the whole card, its grid
drawn), `cards new NAME --from CARD` (an editable copy that gives the same results), and the
warbeast cards being forced (a crippled Spirit stops forcing; force on a warjack is refused)."""

from __future__ import annotations

import shlex

import numpy as np
import pytest

from mathhammer import Attacker, Scenario, Spend, Target, Weapon, simulate
from mathhammer.cards import BUNDLED_DIR, ENV_VAR, load_card, scenario_from_cards
from mathhammer.cli import main
from mathhammer.errors import InputError
from mathhammer.result.text import format_report
from mathhammer.scenario import ScenarioFileError, loads_scenario, scenario_from_dict


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    """No MATHHAMMER_CARDS, and a home of the test's own: ~/.mathhammer/cards is under it."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))
    return tmp_path / "home" / ".mathhammer" / "cards"


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _error_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: "), err
    return err


# ---------------------------------------------------------------------------- the list
def test_list_shows_points_weapons_and_folders_within_100_columns(capsys, _home):
    rc, out, err = _run(capsys, "cards")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert max(len(line) for line in lines if str(_home) not in line and str(BUNDLED_DIR) not in line) <= 100
    jack = next(i for i, line in enumerate(lines) if line.startswith("heavy_warjack "))
    assert "focus 3" in lines[jack] and "grid 34" in lines[jack] and "12/18" in lines[jack]
    weapons = " ".join(lines[jack + 1: jack + 3])  # its weapons, on the lines under it
    assert "Left fist (MAT 6, P+S 17)" in weapons and "slam: Slam (MAT 6, POW 12)" in weapons
    beast = next(line for line in lines if line.startswith("heavy_warbeast "))
    assert "force 4" in beast  # a warbeast is forced
    rifle = lines[next(i for i, line in enumerate(lines) if line.startswith("infantry ")) + 1]
    assert "ranged: Rifle (RAT 5, POW 10)" in rifle
    # where the files are: the user's folder (not there yet), then the bundled one
    folders = lines[lines.index(next(line for line in lines if line.startswith("Folders"))) + 1:][:2]
    assert folders[0].split()[:2] == ["user", str(_home)] and "none yet" in folders[0]
    assert folders[1].split()[:2] == ["bundled", str(BUNDLED_DIR)] and "(12 cards)" in folders[1]


def test_list_labels_a_user_card_with_its_folder(capsys, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    assert main(["cards", "new", "heavy_warjack", "--from", "heavy_warjack", "--cards", str(mine)]) == 0
    capsys.readouterr()
    rc, out, _ = _run(capsys, "cards", "--cards", str(mine))
    assert rc == 0
    row = next(line for line in out.splitlines() if line.startswith("heavy_warjack "))
    assert row.split()[-1] == "--cards"  # it shadows the bundled card of that name
    assert any(line.split()[:2] == ["--cards", str(mine)] and "(1 card)" in line for line in out.splitlines())


# ---------------------------------------------------------------------------- show
#: The heavy warjack's grid as examples/cards/README.md draws it: rows top to bottom, columns
#: 1 to 6, a blank where a column is shorter (columns aligned at the top).
README_HEAVY_WARJACK = [
    ". . . . . .",
    ". . . . . .",
    "L . . . . R",
    "L L H H R R",
    "M L C C R M",
    "  M C C M  ",
]


def _cells(line: str) -> list[str]:
    """The six cells of a card table's row: each column is 8 wide ("column N", "branch N"),
    two spaces apart, after a two-space indent."""
    return [line[2 + 10 * k: 10 + 10 * k] for k in range(6)]


def _grid_rows(out: str, header: str) -> list[str]:
    """The letter of each cell of each row of the card table under ``header`` (a report's
    cell is "LETTER NN%"), a blank where the column has no box."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header)) + 3  # titles, rule
    rows = []
    for line in lines[start:]:
        if not line.startswith("  ") or not line.strip():
            break
        rows.append(" ".join(c.split()[0] if c.strip() else " " for c in _cells(line)))
    return rows


def test_show_prints_the_whole_card_with_its_grid_drawn_top_aligned(capsys):
    rc, out, err = _run(capsys, "cards", "show", "heavy_warjack")
    assert rc == 0 and err == ""
    assert max(len(line) for line in out.splitlines()) <= 100
    assert f"File: {BUNDLED_DIR / 'heavy_warjack.toml'} (bundled)" in out
    assert "As a target: DEF 12, ARM 18, large base" in out
    assert _grid_rows(out, "Damage grid") == README_HEAVY_WARJACK
    assert "16 hull boxes" in out
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith(("  melee", "  headbutt", "  slam"))}
    assert "MAT 6" in rows["Left"] and "P+S 17" in rows["Left"] and "location L" in rows["Left"]
    assert "headbutt power attack, knockdown" in rows["Head-butt"]  # the weapon's rules
    assert "As an attacker: model warjack, focus 3" in out
    assert "Actions: melee (the default), headbutt, slam" in out


def test_show_draws_a_spiral_and_a_track():
    beast = load_card("heavy_warbeast")
    from mathhammer.cli.cardsheet import format_card

    out = format_card(beast, "bundled")
    # branch 1 of heavy_warbeast: six Mind boxes; branch 2 five; the spiral as the card file gives it
    assert _grid_rows(out, "Life spiral")[0] == "M M B B S S"
    assert _grid_rows(out, "Life spiral")[5] == "M   B B   S"
    assert "Aspects: B Body 12, M Mind 11, S Spirit 11." in out
    assert "As an attacker: model warbeast, force 4" in out
    caster = format_card(load_card("warcaster"), "bundled")
    assert "Damage: a track of 18 boxes." in caster and "focus = 6" in caster


def test_show_and_the_report_draw_the_card_the_same_way():
    """One drawing of a grid: the text report's box odds sit where `cards show` puts the
    letters (its cells are "LETTER NN%")."""
    from mathhammer.cli.cardsheet import format_card

    scen = scenario_from_cards(["heavy_warjack"], "light_warjack", trials=2000, seed=1)
    report = format_report(scen, simulate(scen))
    shown = format_card(load_card("light_warjack"), "bundled")
    assert _grid_rows(report, "Probability each box") == _grid_rows(shown, "Damage grid")


def test_show_unknown_name_is_one_line_with_close_names(capsys):
    rc, out, err = _run(capsys, "cards", "show", "heavy_warjak")
    assert rc == 2 and out == ""
    line = _error_line(err)
    assert "'heavy_warjak'" in line and "did you mean 'heavy_warjack'" in line


# ---------------------------------------------------------------------------- new
def test_new_writes_a_copy_that_gives_the_same_results(capsys, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    rc, out, err = _run(capsys, "cards", "new", "my_jack", "--from", "heavy_warjack", "--cards", str(mine))
    assert rc == 0 and err == ""
    path = mine / "my_jack.toml"
    assert out.splitlines()[0] == str(path) and path.is_file()
    copy = load_card("my_jack", [mine])
    assert copy.info.path == path and copy.info.title == "My jack" and not copy.info.bundled
    # the same card but for its name: as the target and as the attacker, the same figures at one seed
    orig = simulate(scenario_from_cards(["heavy_warjack"], "heavy_warjack"), trials=20_000, seed=7)
    same = simulate(scenario_from_cards(["my_jack"], "my_jack", dirs=[mine]), trials=20_000, seed=7)
    np.testing.assert_array_equal(orig.damage_pmf, same.damage_pmf)
    assert orig.cripple == same.cripple and orig.kill == same.kill
    # an editable text: the source's comments kept, where it came from said
    text = path.read_text(encoding="utf-8")
    assert "copied from the card 'heavy_warjack'" in text and 'name = "My jack"' in text
    assert "#     3  L  .  .  .  .  R" in text
    assert [p.name for p in mine.iterdir()] == ["my_jack.toml"]  # no temporary file left


def test_new_into_a_cards_folder_says_the_commands_that_find_it(capsys, tmp_path):
    """The card written into a --cards folder is found only with --cards: the hint's commands
    carry it, and run as printed."""
    mine = tmp_path / "my cards"
    mine.mkdir()
    rc, out, _ = _run(capsys, "cards", "new", "my_jack", "--from", "heavy_warjack", "--cards", str(mine))
    hint = out.splitlines()[1]
    show = hint.split("`")[1]
    assert show == f"mathhammer cards --cards '{mine}' show my_jack"
    rc, out, err = _run(capsys, *shlex.split(show)[1:])
    assert rc == 0 and err == "" and out.startswith("my_jack: My jack")
    assert f"--attacker my_jack --cards '{mine}'" in hint


def test_new_goes_to_the_user_folder_by_default(capsys, _home, monkeypatch, tmp_path):
    rc, out, _ = _run(capsys, "cards", "new", "beast", "--from", "heavy_warbeast")
    assert rc == 0 and out.splitlines()[0] == str(_home / "beast.toml")
    assert "--cards" not in out  # found by name from there: the hint needs no folder
    assert load_card("beast").info.path == _home / "beast.toml"  # found by name from there
    env = tmp_path / "env"
    env.mkdir()
    monkeypatch.setenv(ENV_VAR, str(env))  # MATHHAMMER_CARDS comes before the user folder
    rc, out, _ = _run(capsys, "cards", "new", "beast2", "--from", "beast")
    assert rc == 0 and out.splitlines()[0] == str(env / "beast2.toml")


def test_new_never_overwrites_without_being_asked(capsys, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    path = mine / "my_jack.toml"
    path.write_text("# mine, edited\n", encoding="utf-8")
    before = path.read_bytes()
    for name in ("my_jack", "My-Jack"):  # the same card name (case and - ignored)
        rc, out, err = _run(capsys, "cards", "new", name, "--from", "heavy_warjack", "--cards", str(mine))
        assert rc == 2 and out == ""
        line = _error_line(err)
        assert str(path) in line and "--overwrite" in line and repr(name) in line
        assert path.read_bytes() == before
    rc, _, _ = _run(capsys, "cards", "new", "my_jack", "--from", "light_warjack", "--cards", str(mine),
                    "--overwrite")
    assert rc == 0 and load_card("my_jack", [mine]).info.kind == "light warjack"


@pytest.mark.parametrize("argv, words", [
    (["cards", "new", "x", "--from", "heavy_warjak"], ["--from", "'heavy_warjak'", "heavy_warjack"]),
    (["cards", "new", "a/b", "--from", "heavy_warjack"], ["NAME", "'a/b'"]),
    (["cards", "new", "", "--from", "heavy_warjack"], ["NAME", "''"]),
    (["cards", "new", "x.toml", "--from", "heavy_warjack"], ["NAME", "'x.toml'"]),
    (["cards", "new", "x", "--from", "solo", "--cards", "/no/such/dir"], ["--cards", "/no/such/dir"]),
])
def test_new_bad_input_is_one_line_and_writes_nothing(capsys, argv, words, _home):
    rc, out, err = _run(capsys, *argv)
    assert rc == 2 and out == ""
    line = _error_line(err)
    assert all(w in line for w in words), line
    assert not _home.exists()


# ---------------------------------------------------------------------------- forcing
def test_crippled_spirit_stops_forcing_worked_example():
    """Rule (docs/rules.md 3, "Spirit: cannot be forced"): a warbeast forced to boost its
    attack roll rolls 3d6, but with a crippled Spirit it cannot be forced and rolls 2d6.
    MAT 6 against DEF 12 needs 6: 3d6 misses only on 3, 4, 5 (10 of 216 rolls), 2d6 on 2 to 5
    (10 of 36). A POW 30 hit always destroys the 1-box target, so the kill is the hit."""
    probe = Weapon("Probe", "melee", 6, 30)
    boost = Spend(boost_attack="always", boost_damage="never", buy_attacks=False)
    kills = [simulate(Scenario(Target(12, 10, boxes=1), [Attacker("Beast", [probe], force=1, model="warbeast",
                                                                    crippled=c, spend=boost)]),
                      method="exact").kill for c in (set(), {"S"})]
    assert kills == pytest.approx([206 / 216, 26 / 36], abs=1e-12)


def test_the_warbeast_cards_are_forced_so_a_crippled_spirit_counts():
    """The bundled warbeasts are forced (a warlock's fury is its own): crippling the heavy
    warbeast's Spirit takes its forcing away, so it does exactly what it does forced 0 times
    (docs/rules.md 3), and less than with its forcing."""
    assert load_card("heavy_warbeast").to_attacker().force == 4
    assert load_card("light_warbeast").to_attacker().force == 3

    def exact(**attacker):
        scen = scenario_from_dict({"target": {"card": "heavy_infantry"},
                                   "attackers": [{"card": "heavy_warbeast", **attacker}]})
        return simulate(scen, method="exact")

    crippled, none, whole = exact(crippled=["S"]), exact(force=0), exact()
    assert crippled.kill == pytest.approx(none.kill, abs=1e-12)
    np.testing.assert_allclose(crippled.damage_pmf, none.damage_pmf, atol=1e-12)
    assert crippled.kill < whole.kill - 0.05 and crippled.damage_mean < whole.damage_mean


def test_force_on_a_warjack_is_refused():
    with pytest.raises(InputError) as err:
        Attacker("Jack", [Weapon("Fist", "melee", 6, 14)], force=2)  # the default model: warjack
    assert err.value.key == "force" and "warbeast" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(InputError, match="force.*model = 'other'"):
        Attacker("Caster", [Weapon("Staff", "melee", 6, 14)], force=1, model="other")
    text = ('[target]\ndef = 12\narm = 16\nboxes = 8\n\n[[attackers]]\nforce = 2\n'
            '[[attackers.weapons]]\nname = "Fist"\ntype = "melee"\nskill = 6\npow = 14\n')
    with pytest.raises(ScenarioFileError) as err:
        loads_scenario(text, "jack.toml")
    assert "attackers[0].force" in str(err.value) and "warbeast" in str(err.value)
    assert loads_scenario(text.replace("force = 2", 'force = 2\nmodel = "warbeast"')).attackers[0].force == 2
    with pytest.raises(InputError, match="force"):  # a warjack card given forcing
        scenario_from_dict({"target": {"card": "solo"}, "attackers": [{"card": "heavy_warjack", "force": 2}]})
