"""The fenced code blocks of README.md and docs/*.md, read for tests/test_doc_blocks.py.

Every block's fence names its language, and the language says what the test does with it:

- ``python``: run as a script, in a fresh interpreter;
- ``console``: each ``$ ``-prompted command is run (the lines after it are its output);
  ``bash``, ``sh``, ``shell``: every line is a command (``#`` comments and blank lines
  aside); a line ending in ``\\`` continues on the next;
- ``toml``: a whole scenario file, read by the scenario reader;
- ``text``: output, a diagram or a usage synopsis: shown, never run.

An HTML comment on the nearest non-blank line above a fence changes that:
``<!-- doc-test: fragment -->`` marks a TOML block that is part of a file, not a whole one
(not read), and ``<!-- doc-test: exit N -->`` says each command of a shell block documents an
error and exits with status N; ``<!-- doc-test: serves -->`` says each command of a shell
block serves a page (``mathhammer app --port N``): it is started, must answer on that port,
and is stopped. Any other fence language, a fence without one, or another
marker is refused, so that no block is left out unnoticed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The documents whose blocks are run.
DOCUMENTS = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))

#: Fence language -> kind of block.
KINDS = {
    "python": "python",
    "console": "shell",
    "bash": "shell",
    "sh": "shell",
    "shell": "shell",
    "toml": "scenario",
    "text": "output",
}
#: Kinds that are not executed: output, and the TOML fragments a marker names.
NOT_RUN = ("output", "fragment")

_FENCE = re.compile(r"^ *(`{3,}|~{3,})\s*([^`\s]*)\s*$")
_MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
_EXIT = re.compile(r"exit (\d{1,3})")


class DocBlockError(ValueError):
    """A block the test cannot classify: an unknown or missing fence language, a bad marker."""


@dataclass(frozen=True)
class Block:
    """One fenced block of a document.

    Attributes
    ----------
    doc : str
        The document, relative to the repository root (``README.md``, ``docs/units.md``).
    line : int
        The line of its opening fence (1-based), so ``id`` points at it in an editor.
    kind : str
        ``python``, ``shell``, ``serving`` (commands that serve a page), ``scenario``,
        ``output`` or ``fragment``.
    language : str
        The fence's language.
    text : str
        The lines between the fences.
    status : int
        The exit status each command of a shell block is expected to end with.
    """

    doc: str
    line: int
    kind: str
    language: str
    text: str
    status: int = 0

    @property
    def id(self) -> str:
        """``DOC:LINE``, the test's id."""
        return f"{self.doc}:{self.line}"

    def commands(self) -> list[str]:
        """The commands of a shell block, continuation lines joined, prompts removed."""
        if self.kind not in ("shell", "serving"):
            raise DocBlockError(f"{self.id}: a {self.kind} block has no commands")
        out: list[str] = []
        going = False
        for raw in self.text.splitlines():
            line = raw.rstrip()
            if going:
                out[-1] += "\n" + line
            elif self.language == "console":
                if not line.startswith("$ "):
                    continue                       # the output of the command above
                out.append(line[2:])
            elif line.strip() and not line.lstrip().startswith("#"):
                out.append(line)
            else:
                continue
            going = line.endswith("\\")
        if not out:
            raise DocBlockError(f"{self.id}: a shell block with no command")
        return out


def _marker(lines: list[str], fence: int) -> str | None:
    """The doc-test marker on the nearest non-blank line above line index ``fence``."""
    i = fence - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    if i < 0:
        return None
    m = _MARKER.match(lines[i])
    return m.group(1) if m else None


def _classify(where: str, language: str, marker: str | None) -> tuple[str, int]:
    """(kind, expected status) of a block, or DocBlockError."""
    if not language:
        raise DocBlockError(f"{where}: a fence without a language (one of {sorted(KINDS)})")
    if language not in KINDS:
        raise DocBlockError(f"{where}: unknown fence language {language!r} "
                            f"(one of {sorted(KINDS)})")
    kind = KINDS[language]
    if marker is None:
        return kind, 0
    if marker == "fragment" and kind == "scenario":
        return "fragment", 0
    if marker == "serves" and kind == "shell":
        return "serving", 0
    m = _EXIT.fullmatch(marker)
    if m and kind == "shell":
        return kind, int(m.group(1))
    raise DocBlockError(f"{where}: marker {marker!r} does not apply to a {language} block "
                        "('fragment' on toml, 'exit N' or 'serves' on a shell block)")


def parse(text: str, doc: str) -> list[Block]:
    """Every fenced block of a Markdown text.

    Parameters
    ----------
    text : str
        The document.
    doc : str
        Its name in block ids.

    Returns
    -------
    list of Block
        In document order.

    Raises
    ------
    DocBlockError
        A fence without a language or with one not in :data:`KINDS`, a marker that does not
        apply, or a block never closed.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, language = m.group(1), m.group(2)
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        where = f"{doc}:{i + 1}"
        if end == len(lines):
            raise DocBlockError(f"{where}: the block is never closed")
        kind, status = _classify(where, language, _marker(lines, i))
        blocks.append(Block(doc, i + 1, kind, language, "\n".join(lines[i + 1:end]) + "\n",
                            status))
        i = end + 1
    return blocks


def all_blocks() -> list[Block]:
    """The blocks of every document of :data:`DOCUMENTS`."""
    return [b for doc in DOCUMENTS for b in parse((ROOT / doc).read_text(encoding="utf-8"), doc)]
