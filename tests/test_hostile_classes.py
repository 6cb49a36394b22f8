"""Generated hostile inputs, by class (the second audit): huge integers, long paths, special
files, invisible names, API arguments of the wrong kind, temporary-file names, Numba's own
environment, Dask addresses, concurrent writers.

Every case is one input into one entry (a command-line flag, a key of a scenario or card file,
a value typed into the explorer, an API argument), made by a fixed-seed generator, and checks
the same rule: no traceback and no silent default. The command line exits with status 2 and
prints one line, ``mathhammer: error: KEY: ...``, naming the key (or flag) and the value (cut to
80 characters), with nothing on stdout; the API raises the project's
:class:`~mathhammer.errors.InputError`, one line; no file of the user's changed, and no file was
left behind.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import cli
from mathhammer.errors import InputError, MathhammerError, shown

SEED = 46_2026

FILE = """\
[simulation]
trials = 1000
seed = 1

[target]
name = "Target"
def = 12
arm = 14
boxes = 5

[[attackers]]
name = "Jack"
focus = 1

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 6
pow = 12
"""

#: Integer keys of a scenario file, and the line each sits on in FILE (replaced by a value).
INT_KEYS = {"simulation.trials": "trials = 1000", "simulation.seed": "seed = 1", "target.def": "def = 12",
            "target.arm": "arm = 14", "target.boxes": "boxes = 5", "attackers[0].focus": "focus = 1",
            "attackers[0].weapons[0].skill": "skill = 6", "attackers[0].weapons[0].pow": "pow = 12"}


def _huge(rnd: random.Random) -> str:
    digits = rnd.choice([4_301, 5_000, 9_999, 20_000])
    return rnd.choice(["", "-"]) + "9" * digits


def _snapshot(folder: Path) -> dict:
    """Every file below ``folder`` and the hash of its bytes (named pipes and devices by kind)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or not p.exists():
            continue
        if p.is_file():
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
        elif not p.is_dir():
            out[str(p.relative_to(folder))] = "special"
    return out


def _one_line(capsys, argv, names: tuple = ()) -> str:
    """Run the command line: status 2, nothing on stdout, one line on stderr naming each of
    ``names`` (a long one as error messages cut it)."""
    status = cli.main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (argv, status, err[-300:])
    assert out == "" and err.count("\n") == 1 and err.startswith("mathhammer: error: "), err[-300:]
    assert "Traceback" not in err
    for name in names:
        assert name in err or shown(name) in err, (name[:40], err)
    assert len(err) < 600, err[:300]  # values (and paths) cut: no value pasted in full
    return err


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    """A working folder holding the user's files: a valid scenario, a card, a note."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(FILE, encoding="utf-8")
    (tmp_path / "note.txt").write_text("mine\n", encoding="utf-8")
    return tmp_path


# ----------------------------------------------------------------------- huge integers
def _huge_file_cases():
    rnd = random.Random(SEED)
    cases = []
    for key, line in INT_KEYS.items():
        for k in range(10):
            cases.append((f"file-{key}-{k}", key, line.split(" = ")[0] + " = " + _huge(rnd)))
    return cases


@pytest.mark.parametrize("case, key, line", _huge_file_cases(), ids=[c[0] for c in _huge_file_cases()])
def test_a_huge_integer_in_a_file_is_one_line(case, key, line, folder, capsys):
    text = FILE.replace(INT_KEYS[key], line)
    (folder / "h.toml").write_text(text, encoding="utf-8")
    before = _snapshot(folder)
    err = _one_line(capsys, ["run", "h.toml"])
    assert "h.toml" in err and key.rsplit(".", 1)[-1].split("[")[0] in err and "digits" in err
    assert _snapshot(folder) == before


def _huge_flag_cases():
    rnd = random.Random(SEED + 1)
    flags = [(["run", "s.toml", "--trials"], "--trials"), (["run", "s.toml", "--seed"], "--seed"),
             (["sweep", "s.toml", "--vary"], "--vary"), (["sbh", "activation", "--dice", "2", "--quality"], "--quality"),
             (["sbh", "shoot", "--shooters", "2", "--combat", "3", "--target-combat", "3", "--modifier"], "--modifier"),
             (["sbh", "turn"], "STEP"), (["app", "--port"], "--port")]
    cases = []
    for argv, flag in flags:
        for k in range(10):
            value = _huge(rnd) if k % 2 else rnd.choice(["1_0_", "١٢", "1e99999", "+-3", "0x10", "1__0"])
            if flag == "--vary":
                value = f"target.arm={value}"
            if flag == "STEP":
                value = f"{value}:2"
            cases.append((f"flag-{flag}-{k}", argv, flag, value))
    return cases


@pytest.mark.parametrize("case, argv, flag, value", _huge_flag_cases(), ids=[c[0] for c in _huge_flag_cases()])
def test_a_bad_number_in_a_flag_is_one_line(case, argv, flag, value, folder, capsys):
    before = _snapshot(folder)
    err = _one_line(capsys, [*argv, value])
    assert flag in err
    assert _snapshot(folder) == before


@pytest.mark.parametrize("text", ["9" * 5000, "-" + "9" * 4400, "1_0_", "١٢", "1e99999", "٣.٥", "1__000"])
@pytest.mark.parametrize("path", [("target", "def"), ("target", "arm"), ("attackers", 0, "weapons", 0, "pow")])
def test_a_bad_number_typed_into_the_explorer_is_refused_by_name(path, text):
    """The page reads a typed number as the file reader does: refused by name, one line."""
    from mathhammer.app import document as D

    doc = D.put(D.new_document(), path, D.parse_typed(text))
    with pytest.raises(InputError) as info:
        D.to_scenario(doc)
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 300 and path[-1] in msg


# ----------------------------------------------------------------------- paths
LONG = "x" * 300  # one name longer than any file system takes
DEEP = "/".join(["y" * 200] * 25)  # a path longer than any file system takes


def _path_cases():
    cases = []
    for label, bad in (("long-name", LONG), ("long-path", DEEP), ("nul", "a\0b"), ("empty", ""),
                       ("through-a-file", "note.txt/inside"), ("missing-folder", "no/such/folder/x")):
        cases += [
            (f"run-scenario-{label}", ["run", f"{bad}.toml" if bad else bad], None),
            (f"run-plot-{label}", ["run", "s.toml", "--plot", f"{bad}.png" if bad else bad], "--plot"),
            *([] if label == "missing-folder" else  # --csv creates its folders
              [(f"run-csv-{label}", ["run", "s.toml", "--csv", bad], "--csv")]),
            (f"run-cards-{label}", ["run", "--attacker", "solo", "--target", "solo", "--cards", bad], "cards"),
            (f"sweep-out-{label}", ["sweep", "s.toml", "--vary", "target.arm=14:15", "--out",
                                     f"{bad}.csv" if bad else bad], "--out"),
            (f"sweep-plot-{label}", ["sweep", "s.toml", "--vary", "target.arm=14:15", "--plot",
                                      f"{bad}.png" if bad else bad], "--plot"),
            (f"matrix-out-{label}", ["matrix", "--attackers", "solo", "--targets", "solo", "--out",
                                      f"{bad}.csv" if bad else bad], "--out"),
            (f"matrix-attackers-{label}", ["matrix", "--attackers", bad + "/" if bad else bad,
                                            "--targets", "solo"], "--attackers"),
            (f"cards-list-{label}", ["cards", "--cards", bad], "--cards"),
            (f"cards-show-{label}", ["cards", "show", f"{bad}.toml" if bad else bad], None),
            (f"cards-new-{label}", ["cards", "new", "mine", "--from", "solo", "--cards", bad], "--cards"),
            (f"app-scenario-{label}", ["app", "--no-browser", f"{bad}.toml" if bad else bad], None),
        ]
    return cases


@pytest.mark.parametrize("case, argv, flag", _path_cases(), ids=[c[0] for c in _path_cases()])
def test_a_bad_path_in_a_flag_is_one_line(case, argv, flag, folder, capsys):
    if argv[0] == "app":
        pytest.importorskip("panel")
    before = _snapshot(folder)
    err = _one_line(capsys, argv)
    if flag is not None:
        assert flag in err, err
    assert _snapshot(folder) == before


def _special_files(folder: Path) -> dict:
    fifo = folder / "pipe.toml"
    os.mkfifo(fifo)
    (folder / "dir.toml").mkdir()
    return {"char-device": "/dev/zero", "null-device": "/dev/null", "named-pipe": str(fifo),
            "folder": str(folder / "dir.toml")}


@pytest.mark.parametrize("kind", ["char-device", "null-device", "named-pipe", "folder"])
@pytest.mark.parametrize("entry", ["run", "cards-show", "card-key", "sweep", "app"])
def test_a_special_file_is_refused_at_once(kind, entry, folder, capsys):
    if entry == "app":
        pytest.importorskip("panel")
    path = _special_files(folder)[kind]
    if entry == "card-key":
        (folder / "c.toml").write_text(FILE.replace('[target]\nname = "Target"', f'[target]\ncard = "{path}"'),
                                       encoding="utf-8")
        argv = ["run", "c.toml"]
    else:
        argv = {"run": ["run", path], "cards-show": ["cards", "show", path],
                "sweep": ["sweep", path, "--vary", "target.arm=14:15"],
                "app": ["app", "--no-browser", path]}[entry]
    before = _snapshot(folder)
    began = time.monotonic()
    _one_line(capsys, argv)
    assert time.monotonic() - began < 10  # never read for ever, never blocked
    assert _snapshot(folder) == before


def test_an_unreadable_card_folder_is_refused_not_skipped(folder, capsys):
    if os.geteuid() == 0:
        pytest.skip("root reads any folder")
    locked = folder / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        _one_line(capsys, ["cards", "--cards", str(locked)], ("locked",))
    finally:
        locked.chmod(0o700)


def test_an_empty_home_writes_no_card_at_the_root(folder, capsys, monkeypatch):
    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv("MATHHAMMER_CARDS", raising=False)
    err = _one_line(capsys, ["cards", "new", "mine", "--from", "solo"])
    assert "--cards" in err and not Path("/.mathhammer").exists()


# ----------------------------------------------------------------------- temporary files
@pytest.mark.parametrize("name", [".arm.csv.tmp", "arm.csv.tmp", "arm.csv.meta.json.tmp", ".arm.csv.meta.json.tmp",
                                  "arm.csv.lock", ".arm.csv.probe"])
def test_files_named_like_temporary_ones_are_never_written(name, folder, capsys):
    mine = folder / name
    mine.write_text("precious\n", encoding="utf-8")
    assert cli.main(["sweep", "s.toml", "--vary", "target.arm=14:15", "--out", "arm.csv", "--no-progress"]) == 0
    capsys.readouterr()
    assert mine.read_text(encoding="utf-8") == "precious\n"
    assert not [p for p in folder.iterdir() if "mathhammer-tmp" in p.name]


def test_a_parquet_matrix_keeps_a_file_named_like_its_temporary(folder, capsys):
    pytest.importorskip("pyarrow")
    mine = folder / "m.parquet.tmp"
    mine.write_text("precious\n", encoding="utf-8")
    assert cli.main(["matrix", "--attackers", "solo", "--targets", "solo", "--trials", "1000", "--seed", "1",
                     "--out", "m.parquet", "--no-progress"]) == 0
    capsys.readouterr()
    assert mine.read_text(encoding="utf-8") == "precious\n" and (folder / "m.parquet").exists()


# ----------------------------------------------------------------------- names
INVISIBLE = ["\u200b", "\u200b\u200d", "\u2060", "\ufeff", "\u00ad", " \u200b ", "\u0301", "\u202e"]


@pytest.mark.parametrize("name", INVISIBLE, ids=[f"U+{ord(n.strip()[0]):04X}" for n in INVISIBLE])
@pytest.mark.parametrize("where", ['[target]\nname = "Target"', '[[attackers]]\nname = "Jack"',
                                   '[[attackers.weapons]]\nname = "Fist"'])
def test_a_name_made_of_invisible_characters_is_refused(name, where, folder, capsys):
    head = where.split("\n")[0]
    (folder / "n.toml").write_text(FILE.replace(where, f'{head}\nname = "{name}"'), encoding="utf-8")
    err = _one_line(capsys, ["run", "n.toml"])
    assert "name" in err and "visible" in err


@pytest.mark.parametrize("name", INVISIBLE[:4])
def test_a_loadout_label_of_invisible_characters_is_refused(name):
    scen = mh.load_scenario(_write_tmp(FILE))
    with pytest.raises(InputError, match="visible"):
        mh.compare({name: scen, "other": scen}, trials=1000, seed=1)


def _write_tmp(text: str) -> str:
    import tempfile

    fd, path = tempfile.mkstemp(suffix=".toml")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


# ----------------------------------------------------------------------- the API
#: Cases whose value is a real one for that argument (no folder of cards; no file).
ACCEPTED = {"matrix.cards-0", "matrix.cards-3", "sweep.out-0"}


def _api_cases():
    from mathhammer.cards import scenario_from_cards
    from mathhammer.scenario import scenario_to_dict

    scen = mh.load_scenario(_write_tmp(FILE))
    res = mh.simulate(scen, trials=2000, seed=1)
    frame = mh.sweep(scen, {"target.arm": [14, 15]}, trials=1000, seed=1, progress=False)
    from mathhammer import plots

    bad = [None, 5, "x", [], {}, "a\0b", -1, 1.5, True, object(), b"\xff\xfe", float("nan")]
    calls = {
        "load_scenario": lambda b: mh.load_scenario(b),
        "scenario_from_dict": lambda b: mh.scenario_from_dict(b),
        "common_stride": lambda b: mh.common_stride(b),
        "paired_difference.b": lambda b: mh.paired_difference(res, b),
        "paired_difference.metric": lambda b: mh.paired_difference(res, res, b),
        "pivot": lambda b: mh.pivot(b),
        "pivot.metric": lambda b: mh.pivot(frame, b),
        "pivot_matrix": lambda b: mh.pivot_matrix(b),
        "compare": lambda b: mh.compare(b, trials=1000),
        "sweep.vary": lambda b: mh.sweep(scen, b, trials=1000, progress=False),
        "sweep.out": lambda b: mh.sweep(scen, {"target.arm": [16]}, trials=1000, out=b, progress=False),
        "matrix.cards": lambda b: mh.matrix(["solo"], ["solo"], trials=1000, cards=b, progress=False),
        "matrix.attackers": lambda b: mh.matrix(b, ["solo"], trials=1000, progress=False),
        "simulate.stride-exact": lambda b: mh.simulate(scen, method="exact", stride=b if b is not None else 4),
        "scenario_from_cards": lambda b: scenario_from_cards(b, "solo"),
        "scenario_to_dict": lambda b: scenario_to_dict(b),
        "plot_damage": lambda b: plots.plot_damage(b),
        "plot_card": lambda b: plots.plot_card(b),
        "plot_cripple": lambda b: plots.plot_cripple(b),
        "plot_models_destroyed": lambda b: plots.plot_models_destroyed(b),
        "plot_kill_heatmap": lambda b: plots.plot_kill_heatmap(b),
        "plot_matrix": lambda b: plots.plot_matrix(b),
        "main_figure": lambda b: plots.main_figure(b),
        "sweep_figure": lambda b: plots.sweep_figure(b),
        "save_figure.path": lambda b: plots.save_figure(plots.main_figure(res), b),
        "plot_damage.ax": lambda b: plots.plot_damage(res, ax=b if b is not None else 5),
    }
    return [(f"{name}-{i}", fn, b) for name, fn in calls.items() for i, b in enumerate(bad)]


_API = None


def _api():
    global _API
    if _API is None:
        import matplotlib

        matplotlib.use("Agg")
        _API = _api_cases()
    return _API


@pytest.mark.parametrize("index", range(26 * 12))
def test_a_bad_api_argument_is_one_line_of_the_project_s_errors(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    case, fn, value = _api()[index]
    if case in ACCEPTED:
        fn(value)
        return
    with pytest.raises(MathhammerError) as info:
        fn(value)
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 400, (case, msg)


# ----------------------------------------------------------------------- the environment
@pytest.mark.parametrize("var, value", [("NUMBA_NUM_THREADS", "0"), ("NUMBA_NUM_THREADS", "-3"),
                                        ("NUMBA_THREADING_LAYER", "bogus"), ("NUMBA_DISABLE_JIT", "1")])
def test_numba_settings_numba_refuses_are_one_line(var, value, folder):
    env = dict(os.environ, **{var: value})
    r = subprocess.run([sys.executable, "-m", "mathhammer", "run", "s.toml"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 2 and r.stdout == "", r.stderr[-500:]
    assert r.stderr.count("\n") == 1 and var in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("address", ["tcp://[::1", "tcp://host:99999", "tcp://host:abc", "tcp://a b",
                                     "tls://x:1:2", "tcp://%%%", "tcp://host:0"])
def test_a_scheduler_address_dask_cannot_read_is_one_line(address, folder, capsys):
    pytest.importorskip("distributed")
    err = _one_line(capsys, ["matrix", "--attackers", "solo", "--targets", "solo", "--scheduler", address])
    assert "scheduler" in err


# ----------------------------------------------------------------------- concurrent writers
#: A sweep long enough (a few seconds) for a second run to start while it writes.
SWEEP = [sys.executable, "-m", "mathhammer", "sweep", "s.toml", "--vary", "target.arm=10:40", "--trials", "4000000",
         "--out", "same.csv", "--no-progress"]


def test_a_second_writer_of_the_same_out_stops_at_once(folder):
    first = subprocess.Popen(SWEEP, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # wait until the first holds the file (its first point is written)
            if (folder / "same.csv").exists():
                break
            time.sleep(0.05)
        began = time.monotonic()
        second = subprocess.run(SWEEP[:-1] + ["--resume", "--no-progress"], capture_output=True, text=True,
                                timeout=300)
        waited = time.monotonic() - began
    finally:
        out, err = first.communicate(timeout=600)
    assert first.returncode == 0, err[-500:]
    assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr[-500:]
    assert "another run is writing this file" in second.stderr and waited < 30
    # the file is an uninterrupted run's
    alone = folder / "alone"
    alone.mkdir()
    (alone / "s.toml").write_text(FILE, encoding="utf-8")
    r = subprocess.run(SWEEP[:-3] + ["--out", "same.csv", "--no-progress"], cwd=alone, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-500:]
    assert (alone / "same.csv").read_bytes() == (folder / "same.csv").read_bytes()


def test_an_app_port_in_use_is_one_line_with_a_free_one_suggested(folder):
    pytest.importorskip("panel")
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "mathhammer", "app", "--no-browser", "--port", str(port)],
                           capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "--port: is in use on 127.0.0.1" in r.stderr and "--port 0" in r.stderr


def test_app_refuses_a_file_of_several_targets(folder, capsys):
    pytest.importorskip("panel")
    text = FILE.replace('[target]\nname = "Target"\ndef = 12\narm = 14\nboxes = 5\n',
                        '[[targets]]\nname = "A"\ndef = 12\narm = 14\nboxes = 5\n'
                        '[[targets]]\nname = "B"\ndef = 12\narm = 14\nboxes = 5\n')
    (folder / "two.toml").write_text(text, encoding="utf-8")
    err = _one_line(capsys, ["app", "--no-browser", "two.toml"])
    assert "several targets" in err


# ----------------------------------------------------------------------- Ctrl-C, twice
def test_ctrl_c_twice_in_a_sweep_is_one_line_and_the_file_resumes(folder):
    """A second Ctrl-C while the first one's cleanup runs (the journal kept, the lock let go)
    still ends with one line and status 130, and ``--resume`` completes the file to an
    uninterrupted run's."""
    import signal

    first = subprocess.Popen(SWEEP, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # until its first point is written
            if (folder / "same.csv").exists() and (folder / "same.csv").stat().st_size > 0:
                break
            time.sleep(0.05)
        first.send_signal(signal.SIGINT)
        time.sleep(0.02)
        first.send_signal(signal.SIGINT)
    finally:
        out, err = first.communicate(timeout=300)
    assert first.returncode == 130, err[-500:]
    assert err.count("\n") == 1 and "interrupted" in err and "Traceback" not in err, err[-500:]
    r = subprocess.run(SWEEP[:-1] + ["--resume", "--no-progress"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-500:]
    alone = folder / "alone"
    alone.mkdir()
    (alone / "s.toml").write_text(FILE, encoding="utf-8")
    r = subprocess.run(SWEEP, cwd=alone, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-500:]
    assert (alone / "same.csv").read_bytes() == (folder / "same.csv").read_bytes()


# ----------------------------------------------------------------------- the third audit: flags
# A single-valued flag given twice, a flag that cannot act (--force without a file, sbh settings
# no roll of the command feels), an integer in a float's spelling, --json where nothing prints
# JSON, progress bars into a stderr that is not a terminal: refused in one line, by class.
import argparse  # noqa: E402

from mathhammer.cli import _common  # noqa: E402


def _parsers():
    """(command words, parser) of every command and subcommand of the command line."""
    out, todo = [], [((), cli._build_parser())]
    while todo:
        words, parser = todo.pop()
        out.append((words, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += [((*words, name), p) for name, p in action.choices.items()]
    return [(w, p) for w, p in out if w]


def _flags(kinds):
    """(command words, flag action) of every optional flag of every command whose action is
    one of ``kinds``."""
    return [(words, a) for words, p in _parsers() for a in p._actions
            if a.option_strings and isinstance(a, kinds)]


def _good_values(action) -> tuple[str, str]:
    """Two values ``action``'s type and choices take (the second differs where it can)."""
    if action.choices:
        choices = list(action.choices)
        return choices[0], choices[-1]
    if hasattr(action.type, "lo"):  # int_arg
        return str(action.type.lo), str(action.type.hi)
    name = getattr(action.type, "__name__", "")
    if name == "_qualities":
        return "3,4", "4,5"
    if name == "_objective":
        return "kill", "damage"
    return "a", "b"


_SINGLE = _flags(_common.ONCE)


def _twice_cases():
    cases = []
    for words, action in _SINGLE:
        flag = action.option_strings[0]
        if isinstance(action, argparse.BooleanOptionalAction):
            on, off = action.option_strings
            cases += [(" ".join(words) + f" {on} {on}", [*words, on, on], (on,)),
                      (" ".join(words) + f" {on} {off}", [*words, on, off], (on, off)),
                      (" ".join(words) + f" {off} {on}", [*words, off, on], (off, on))]
        elif action.nargs == 0:
            cases.append((" ".join(words) + f" {flag}", [*words, flag, flag], (flag,)))
        else:
            a, b = _good_values(action)
            cases.append((" ".join(words) + f" {flag}", [*words, f"{flag}={a}", f"{flag}={b}"], (flag,)))
    return cases


#: argparse's actions a flag may be given with more than once (``--vary``, ``--label``, ``--cards``...),
#: or that stop the command line (``--help``, ``--version``).
_REPEATABLE = {"_AppendAction", "_AppendConstAction", "_ExtendAction", "_HelpAction", "_VersionAction",
               "_SubParsersAction"}


def test_every_flag_is_single_valued_or_meant_to_repeat():
    """Every flag of every command is guarded against being given twice, or repeats on purpose."""
    for words, parser in _parsers():
        assert isinstance(parser, _common.Parser), words
        for action in parser._actions:
            if action.option_strings:
                assert isinstance(action, _common.ONCE) or type(action).__name__ in _REPEATABLE, (words, action)
    assert len(_SINGLE) > 60 and {w[0] for w, _ in _SINGLE} >= {"run", "demo", "sweep", "compare", "matrix",
                                                                 "cards", "sbh", "app", "warm"}


@pytest.mark.parametrize("case, argv, names", _twice_cases(), ids=[c[0] for c in _twice_cases()])
def test_a_single_valued_flag_given_twice_is_one_line(case, argv, names, folder, capsys):
    before = _snapshot(folder)
    err = _one_line(capsys, argv, names)
    assert ("given twice" in err) if len(names) == 1 else ("both given" in err), err
    assert _snapshot(folder) == before


@pytest.mark.parametrize("argv, names", [
    (["run", "--target", "heavy_warjack", "--target", "light_warjack"], ("--target", "heavy_warjack", "light_warjack")),
    (["run", "s.toml", "--trials", "100", "--trials", "3000"], ("--trials", "100, then 3000")),
    (["demo", "--method", "exact", "--method", "mc"], ("--method", "'exact'", "'mc'")),
    (["demo", "--objective", "kill", "--objective", "damage"], ("--objective", "'kill'", "'damage'")),
    (["demo", "--progress", "--no-progress"], ("--progress", "--no-progress")),
    (["sbh", "activation", "--bonus", "1", "--bonus", "2"], ("--bonus", "1, then 2")),
    (["sweep", "s.toml", "--vary", "target.arm=14", "--json", "--json"], ("--json",)),
    (["run", "s.toml", "--seed", "1", "--seed", "1"], ("--seed",)),  # the same value twice too
    (["run", "s.toml", "--plot", "x" * 300 + ".png", "--plot", "y.png"], ("--plot",)),  # values cut
])
def test_the_audit_s_repeated_flags_are_refused_naming_both_values(argv, names, folder, capsys):
    _one_line(capsys, argv, names)


def test_flags_meant_to_repeat_still_repeat(folder, capsys):
    (folder / "t.toml").write_text(FILE, encoding="utf-8")
    assert cli.main(["sweep", "s.toml", "t.toml", "--label", "a", "--label", "b", "--vary", "target.arm=14",
                     "--vary", "target.def=12", "--trials", "1000", "--seed", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"target.arm"' in out and '"target.def"' in out and '"a"' in out and '"b"' in out
    assert cli.main(["run", "--attacker", "solo", "--attacker", "solo", "--target", "solo", "--trials", "1000",
                     "--seed", "1", "--json", "--no-progress"]) == 0
    assert len(__import__("json").loads(capsys.readouterr().out)["spent"]) >= 1
    assert cli.main(["matrix", "--attackers", "solo", "--attackers", "infantry", "--targets", "solo",
                     "--trials", "1000", "--seed", "1", "--json"]) == 0
    assert '"infantry"' in capsys.readouterr().out


def test_cards_before_and_after_an_action_are_both_searched(folder, capsys):
    """``cards --cards A show NAME --cards B``: the action's own --cards no longer replaces the
    one before it (a missing folder in either place is refused)."""
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    card = Path(mh.__file__).parent / "data" / "cards" / "solo.toml"
    (folder / "a" / "mine.toml").write_text(card.read_text(encoding="utf-8").replace('name = "solo"', 'name = "mine"'),
                                            encoding="utf-8")
    assert cli.main(["cards", "--cards", "a", "show", "mine", "--cards", "b"]) == 0
    assert "mine" in capsys.readouterr().out
    _one_line(capsys, ["cards", "--cards", "missing", "show", "solo", "--cards", "b"], ("--cards", "missing"))
    _one_line(capsys, ["cards", "--cards", "a", "show", "solo", "--cards", "missing"], ("--cards", "missing"))


# --force without a file to overwrite
_FORCE = [(["run", "s.toml"], ("--csv", "--plot")), (["demo"], ("--csv", "--plot")),
          (["sweep", "s.toml", "--vary", "target.arm=14"], ("--plot",)), (["compare", "s.toml", "s.toml"], ("--plot",)),
          (["matrix", "--attackers", "solo", "--targets", "solo"], ("--plot",)),
          (["sweep", "s.toml", "--vary", "target.arm=14", "--csv"], ("--plot",)),  # sweep's --csv prints
          (["trade", "t.toml"], ("--plot",)), (["trade-matrix", "--rows", "solo", "--columns", "solo"], ("--plot",)),
          (["worth", "solo", "--against", "solo"], ("--plot",)), (["plan", "s.toml"], ("--plot",))]


@pytest.mark.parametrize("argv, files", _FORCE, ids=[" ".join(a[:1] + a[-1:]) for a, _ in _FORCE])
def test_force_without_a_file_to_overwrite_is_one_line(argv, files, folder, capsys):
    before = _snapshot(folder)
    err = _one_line(capsys, [*argv, "--trials", "1000", "--force"], ("--force", *files))
    assert "nothing" in err
    assert _snapshot(folder) == before
    assert [a for words, a in _flags(_common.OnceStoreTrue) if "--force" in a.option_strings
            and words[0] not in {"run", "demo", "sweep", "compare", "matrix", "trade", "trade-matrix",
                                 "worth", "plan"}] == []  # no other --force


def test_force_with_its_file_still_overwrites(folder, capsys):
    (folder / "out").mkdir()
    argv = ["run", "s.toml", "--trials", "1000", "--seed", "1", "--csv", "out", "--no-progress"]
    assert cli.main(argv) == 0
    assert cli.main(argv) == 2 and "--force" in capsys.readouterr().err
    assert cli.main([*argv, "--force"]) == 0


# integers in a float's spelling
_INTS = [(w, a) for w, a in _flags(_common.OnceStore) if hasattr(a.type, "lo")]


def _float_cases():
    cases = []
    for words, action in _INTS:
        flag, lo = action.option_strings[0], action.type.lo
        good = max(lo, 1) if action.type.hi >= 1 else lo
        for bad in (f"{good}.0", f"{good}e0", f"{good}.", f"{good}E0"):
            cases.append((" ".join(words) + f" {flag}={bad}", [*words, f"{flag}={bad}"], flag, bad))
    for bad in ("4.0,3", "3,4e0"):
        cases += [(f"sbh {c} --qualities={bad}", ["sbh", c, f"--qualities={bad}"], "--qualities", bad)
                  for c in ("group", "best-dice")]
    for bad in ("4.0:2", "4:2e0", "3:1>4.0,4:2", "3:1.0>4,4:2"):
        cases.append((f"sbh turn {bad}", ["sbh", "turn", bad], "STEP 1", bad))
    return cases


def test_every_integer_flag_is_read_by_the_one_reader():
    assert len(_INTS) >= 25
    ids = {id(a.type) for _, a in _INTS}
    assert len(ids) == len(_INTS)  # each its own int_arg, none a bare int
    assert not [a for _, a in _flags(_common.OnceStore) if a.type in (int, float)]


@pytest.mark.parametrize("case, argv, flag, bad", _float_cases(), ids=[c[0] for c in _float_cases()])
def test_an_integer_flag_refuses_a_float_spelling(case, argv, flag, bad, folder, capsys):
    err = _one_line(capsys, argv, (flag, bad))
    assert "integer" in err or "must look like" in err, err


@pytest.mark.parametrize("argv, flag, digits", [
    (["demo", "--trials", "2000.0"], "--trials", "2_000"), (["demo", "--trials", "1e6"], "--trials", "1_000_000"),
    (["demo", "--seed", "1.0"], "--seed", "1"), (["matrix", "--attackers", "solo", "--targets", "solo",
                                                  "--turns", "2.0"], "--turns", "2"),
    (["sbh", "activation", "--dice", "2.0", "--quality", "4"], "--dice", "2"),
    (["sbh", "activation", "--dice", "2", "--quality", "4e0"], "--quality", "4"),
    (["sbh", "shoot", "--shooters", "2.0", "--combat", "3", "--target-combat", "3"], "--shooters", "2"),
])
def test_the_audit_s_float_spellings_say_how_to_write_the_integer(argv, flag, digits, capsys):
    err = _one_line(capsys, argv, (flag,))
    assert f"({digits} rather than" in err and "scenario file" in err


def test_integer_flags_take_what_a_scenario_file_takes(folder, capsys):
    assert cli.main(["run", "s.toml", "--trials", "1_000", "--seed", "+7", "--json", "--no-progress"]) == 0
    data = __import__("json").loads(capsys.readouterr().out)
    assert data["trials"] == 1000 and data["seed"] == 7
    assert cli.main(["sbh", "activation", "--quality", " 4 ", "--dice", "2", "--bonus", "-1", "--json"]) == 0
    capsys.readouterr()
    err = _one_line(capsys, ["sbh", "activation", "--dice", "2", "--quality", "4_0"], ("--quality", "4_0"))
    assert "between 2 and 6" in err  # 4_0 is 40, as in a TOML file: out of range, not 4
    err = _one_line(capsys, ["sbh", "turn", "4_0:2"], ("STEP 1",))
    assert "between 2 and 6" in err and "40" in err


# cards --json before an action that prints text
@pytest.mark.parametrize("argv", [["cards", "--json", "show", "solo"],
                                  ["cards", "--json", "new", "mine", "--from", "solo", "--cards", "."]])
def test_cards_json_before_show_or_new_is_one_line(argv, folder, capsys):
    before = _snapshot(folder)
    err = _one_line(capsys, argv, ("--json", f"cards {argv[2]}"))
    assert _snapshot(folder) == before and "text" in err
    assert cli.main(argv[:1] + argv[2:]) == 0  # without --json: as before
    capsys.readouterr()
    assert cli.main(["cards", "--json"]) == 0 and capsys.readouterr().out.lstrip().startswith("[")


# sbh flags no roll of the command can feel
_SBH_IDLE = [
    (["turn", "4:2", "--leader-bonus", "3", "--large-groups"], "--leader-bonus"),
    (["turn", "4:2", "--leader-bonus", "1"], "--leader-bonus"),
    (["turn", "4:2", "5:3", "--large-groups"], "--large-groups"),
    (["turn", "3:1>4,4,5:3", "--large-groups"], "--large-groups"),
    (["turn", "4:2", "--no-natural-one"], "--no-natural-one"),
    (["turn", "2:2", "3:1>4,4:2", "--no-natural-one"], "--no-natural-one"),  # Q2 alone: no bonus
    (["turn", "4:2", "--no-natural-six"], "--no-natural-six"),
    (["turn", "3:1>6,6:2", "--no-natural-six"], "--no-natural-six"),  # Q6 with the +1 of the order
    (["activation", "--quality", "4", "--dice", "2", "--no-natural-one"], "--no-natural-one"),
    (["activation", "--quality", "4", "--dice", "2", "--bonus", "2", "--no-natural-one"], "--no-natural-one"),
    (["activation", "--quality", "4", "--dice", "2", "--no-natural-six"], "--no-natural-six"),
    (["activation", "--quality", "5", "--dice", "2", "--bonus", "-1", "--no-natural-six"], "--no-natural-six"),
    (["group", "--leader-quality", "3", "--qualities", "4,4,4", "--dice", "2", "--large-groups"], "--large-groups"),
    (["group", "--leader-quality", "3", "--qualities", "4,4", "--dice", "2", "--no-natural-one"], "--no-natural-one"),
    (["group", "--leader-quality", "3", "--qualities", "6,6", "--dice", "2", "--no-natural-six"], "--no-natural-six"),
    (["shoot", "--shooters", "1", "--combat", "3", "--target-combat", "3", "--raw-totals"], "--raw-totals"),
    (["shoot", "--shooters", "1", "--combat", "3", "--target-combat", "3", "--total-floor", "1"], "--total-floor"),
    (["shoot", "--shooters", "1", "--combat", "3", "--target-combat", "3", "--total-floor", "4"], "--total-floor"),
    (["shoot", "--shooters", "2", "--combat", "0", "--target-combat", "3", "--total-floor", "-5"], "--total-floor"),
]


@pytest.mark.parametrize("argv, flag", _SBH_IDLE, ids=[" ".join(a) for a, _ in _SBH_IDLE])
def test_an_sbh_flag_that_cannot_act_is_one_line(argv, flag, capsys):
    err = _one_line(capsys, ["sbh", *argv], (flag,))
    assert "would change nothing" in err


_SBH_ACTING = [
    ["turn", "3:1>4,4:2", "--leader-bonus", "0"],
    ["turn", "4:2", "3:1>" + ",".join(["4"] * 7) + ":2", "--large-groups"],
    ["turn", "3:1>2,2:2", "--no-natural-one"],  # Q2 with the +1 of the order
    ["turn", "3:1>6,6:2", "--leader-bonus", "-1", "--no-natural-six"],
    ["activation", "--quality", "2", "--dice", "2", "--bonus", "1", "--no-natural-one"],
    ["activation", "--quality", "4", "--dice", "2", "--bonus", "3", "--no-natural-one"],
    ["activation", "--quality", "6", "--dice", "2", "--bonus", "-1", "--no-natural-six"],
    ["group", "--leader-quality", "3", "--qualities", ",".join(["4"] * 6), "--dice", "2", "--large-groups"],
    ["group", "--leader-quality", "3", "--qualities", "2,2", "--dice", "2", "--no-natural-one"],
    ["group", "--leader-quality", "3", "--qualities", "6,5", "--dice", "2", "--leader-bonus", "-2",
     "--no-natural-six"],
    ["shoot", "--shooters", "5", "--combat", "0", "--target-combat", "0", "--raw-totals"],
    ["shoot", "--shooters", "1", "--combat", "3", "--target-combat", "3", "--total-floor", "5"],
    ["shoot", "--shooters", "5", "--combat", "0", "--target-combat", "2", "--total-floor", "-1"],
]


@pytest.mark.parametrize("argv", _SBH_ACTING, ids=[" ".join(a) for a in _SBH_ACTING])
def test_an_sbh_flag_that_acts_changes_the_odds(argv, capsys):
    """Where the flag is accepted, the odds differ from those without it."""
    import json

    assert cli.main(["sbh", *argv, "--json"]) == 0
    with_flag = json.loads(capsys.readouterr().out)
    flag = next(a for a in reversed(argv) if a in (  # the flag tested: the last one
        "--leader-bonus", "--large-groups", "--no-natural-one", "--no-natural-six", "--raw-totals", "--total-floor"))
    i = argv.index(flag)
    without = argv[:i] + argv[i + (1 if flag.startswith("--no-") or flag in ("--large-groups", "--raw-totals") else 2):]
    if flag == "--large-groups":
        return  # without it the group is refused (too large)
    assert cli.main(["sbh", *without, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) != with_flag, argv


# progress into a stderr that is not a terminal
class _Stop(Exception):
    pass


@pytest.mark.parametrize("command", ["sweep", "matrix"])
@pytest.mark.parametrize("flag, tty, expected", [(None, False, False), (None, True, True), ("--progress", False, True),
                                                 ("--no-progress", True, False), ("--no-progress", False, False)])
def test_sweep_and_matrix_show_progress_as_run_does(command, flag, tty, expected, folder, monkeypatch):
    """By default a bar only where stderr is a terminal (the rule of run); the flags choose.
    The command passes its flag on (None without one) and the one rule of every run,
    ``show_progress``, decides, as it does for ``run`` and for the API."""
    import mathhammer.studies.matrices as matrices
    import mathhammer.studies.sweeps as sweeps
    from mathhammer._core.ticker import show_progress

    seen = {}

    def record(*args, progress="unset", **kwargs):
        seen["progress"] = progress
        raise _Stop

    monkeypatch.setattr(sweeps, "sweep", record)
    monkeypatch.setattr(matrices, "matrix", record)

    class Err:
        def write(self, text):
            return len(text)

        def flush(self):
            pass

        def isatty(self):
            return tty

    monkeypatch.setattr(sys, "stderr", Err())
    argv = (["sweep", "s.toml", "--vary", "target.arm=14"] if command == "sweep"
            else ["matrix", "--attackers", "solo", "--targets", "solo"])
    with pytest.raises(_Stop):
        cli.main([*argv, "--trials", "1000"] + ([flag] if flag else []))
    assert seen["progress"] is {None: None, "--progress": True, "--no-progress": False}[flag]
    assert show_progress(seen["progress"]) is expected


def test_a_long_sweep_into_a_file_writes_no_bar(folder):
    """A sweep of a few seconds, stderr a pipe: nothing on stderr, no carriage return; with
    --progress (the control: the sweep lasts long enough for a bar) the bar is drawn."""
    argv = [sys.executable, "-m", "mathhammer", "sweep", "s.toml", "--vary", "target.arm=10:25", "--trials",
            "4_000_000", "--seed", "1", "--json"]
    # bytes: text mode would turn the bar's carriage returns into newlines
    r = subprocess.run(argv, capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stderr == b"" and b"\r" not in r.stderr
    asked = subprocess.run([*argv, "--progress"], capture_output=True, timeout=600)
    assert asked.returncode == 0 and asked.stdout == r.stdout
    assert b"sweep" in asked.stderr and b"\r" in asked.stderr, asked.stderr[-500:]
