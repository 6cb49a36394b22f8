"""What the generated invalid inputs' tests share (tests/test_fuzz_inputs.py for scenarios,
tests/test_fuzz_trades.py for trades): keys as errors spell them, TOML values, nested get
and set, a folder's snapshot, and the one-line check of the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mathhammer import cli

__all__ = ["dotted", "toml_value", "get_in", "set_in", "snapshot", "one_line_error"]


def dotted(keys: tuple) -> str:
    """A key as errors spell it: ``attackers[0].weapons[1].pow``."""
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
    return out


def toml_value(v) -> str:
    """A TOML value of ``v`` (inline tables and arrays, whatever their items hold)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if isinstance(v, int) else ("nan" if v != v else repr(v).replace("inf", "inf"))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def get_in(data, keys):
    for k in keys:
        data = data[k]
    return data


def set_in(data, keys, value):
    get_in(data, keys[:-1])[keys[-1]] = value


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_line_error(capsys, argv) -> str:
    """Run the command line ``argv``: exit status 2, nothing on stdout, one line on stderr
    starting ``mathhammer: error:`` (returned)."""
    status = cli.main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (status, err[-2000:])
    assert out == "", out
    assert err.count("\n") == 1 and err.startswith("mathhammer: error: "), err
    return err
