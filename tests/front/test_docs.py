"""The README and the guide under docs/ stay true: their examples run, their links and paths exist.

* every ``>>>`` example in README.md and docs/*.md runs as a doctest and prints what the page says;
* every line of a ```` ```bash ```` block that starts with ``python -m explorer`` (or
  ``.venv/bin/python -m explorer``) runs from the repository's root with this interpreter and exits
  with code 0, or with code 2 where the line's comment says ``exit code 2`` (a documented refusal);
* every relative link points at a file of the repository, and every ``#anchor`` at a heading there;
* every repository path written in backquotes (``explorer/...``, ``tests/...``, ``examples/...``)
  exists, and every dotted name (``explorer.core.engine.roll.roll_counts``) imports;
* the layer listing in docs/architecture.md is what ``python -m explorer.layers`` prints, line
  counts aside.
"""

from __future__ import annotations

import doctest
import importlib
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
IDS = [str(page.relative_to(ROOT)) for page in PAGES]

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
REPO_PATH = re.compile(r"(?:explorer|tests|examples|benchmarks|scripts|notebooks|binder|docs|js|\.ci)/[\w./-]*")
DOTTED = re.compile(r"(?:explorer|tests)(?:\.\w+)+")
COMMAND = re.compile(r"^(?:\.venv/bin/)?python -m explorer")
SHELL_OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1"}


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _fenced_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """Every fenced block: (its language, the line number of its first line, its lines)."""
    blocks: list[tuple[str, int, list[str]]] = []
    language, start, lines = None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            if language is None:
                language, start, lines = line.strip().strip("`~").strip(), number + 1, []
            else:
                blocks.append((language, start, lines))
                language = None
        elif language is not None:
            lines.append(line)
    assert language is None, f"a code block opened on line {start - 1} is never closed"
    return blocks


def _prose(text: str) -> str:
    """The page without its fenced blocks (their lines left empty, so line numbers hold)."""
    out, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            out.append("")
        else:
            out.append("" if inside else line)
    return "\n".join(out)


# ----------------------------------------------------------------------------------------- doctests
def _doctest_of(page: Path) -> doctest.DocTest:
    # Fence lines become blank lines: a closing ``` is then not read as part of an expected output.
    source = "\n".join("" if FENCE.match(line) else line for line in _text(page).splitlines()) + "\n"
    return doctest.DocTestParser().get_doctest(source, {}, page.name, str(page), 0)


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_the_examples_on_the_page_run_and_print_what_it_says(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name files as paths from the repository's root
    test = _doctest_of(page)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_readme_and_the_guide_have_examples_to_run() -> None:
    counts = {page.name: len(_doctest_of(page).examples) for page in PAGES}
    assert counts["README.md"] >= 3, counts
    assert sum(counts.values()) >= 30, counts
    assert {"scenarios.md", "assault-of-the-giants.md", "arcadia-quest.md", "agot-lcg.md"} <= {
        name for name, n in counts.items() if n}, counts


# ----------------------------------------------------------------------------------------- commands
def _commands() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for language, start, lines in _fenced_blocks(_text(page)):
            if language in ("bash", "sh", "shell", "console"):
                found += [(str(page.relative_to(ROOT)), start + i, line.strip())
                          for i, line in enumerate(lines) if COMMAND.match(line.strip())]
    return found


COMMANDS = _commands()


@pytest.mark.parametrize("page, line, command", COMMANDS, ids=[f"{p}:{n}" for p, n, _ in COMMANDS])
def test_the_commands_on_the_page_run(page: str, line: int, command: str) -> None:
    words = shlex.split(command, comments=True)
    assert not SHELL_OPERATORS & set(words), f"{page}:{line}: keep documented commands plain (no pipes or redirects)"
    comment = command.partition("#")[2]
    expected = 2 if "exit code 2" in comment else 0
    run = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == expected, (
        f"{page}:{line}: `{command}` exited with {run.returncode}, the page says {expected}\n{run.stderr[-2000:]}")
    if expected == 2:
        assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    else:
        assert run.stdout.strip(), f"{page}:{line}: `{command}` printed nothing"


def test_the_pages_show_commands_and_a_refusal() -> None:
    assert any(page == "README.md" for page, _, _ in COMMANDS)
    assert any("exit code 2" in command for _, _, command in COMMANDS)


# ----------------------------------------------------------------------------------- links and paths
def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(_text(page)).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            slug = _slug(match.group(1))
            anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return anchors


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_relative_link_points_at_something_that_exists(page: Path) -> None:
    prose = CODE_SPAN.sub("", _prose(_text(page)))
    broken = []
    for target in LINK.findall(prose):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and (file.suffix != ".md" or anchor not in _anchors(file)):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}:\n" + "\n".join(broken)


def _resolves(name: str) -> bool:
    """Whether a dotted name is a module of this repository, or a name such a module defines."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:i])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            value: object = importlib.import_module(".".join(parts[:i]))
            assert Path(getattr(value, "__file__", "")).resolve().is_relative_to(ROOT), value
            for attribute in parts[i:]:
                if not hasattr(value, attribute):
                    return False
                value = getattr(value, attribute)
            return True
    return False


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_path_and_module_named_on_the_page_exists(page: Path) -> None:
    missing = []
    for span in CODE_SPAN.findall(_prose(_text(page))):
        if REPO_PATH.fullmatch(span) and "..." not in span:
            if not (ROOT / span).exists():
                missing.append(f"{span}: no such path")
        elif DOTTED.fullmatch(span) and not _resolves(span):
            missing.append(f"{span}: does not import")
    assert not missing, f"{page.relative_to(ROOT)}:\n" + "\n".join(missing)


def test_the_path_check_can_fail() -> None:
    assert REPO_PATH.fullmatch("explorer/count_dp.py") and not (ROOT / "explorer/count_dp.py").exists()
    assert DOTTED.fullmatch("explorer.loader.read_scenario_file") and not _resolves("explorer.loader.read_scenario_file")
    assert _resolves("explorer.core.engine.roll.roll_counts") and not _resolves("explorer.core.engine.roll.no_such")
    assert _slug("Keys beyond the spec (a battle)") == "keys-beyond-the-spec-a-battle"


# ------------------------------------------------------------------------------------------- layers
def _layer_lines(text: str) -> list[str]:
    return [re.sub(r"\s+", " ", re.sub(r"\d+ lines", "N lines", line)).strip() for line in text.splitlines()
            if line.strip()]


def test_the_architecture_page_shows_the_layers_as_they_are() -> None:
    blocks = [lines for _, _, lines in _fenced_blocks(_text(ROOT / "docs" / "architecture.md"))
              if lines and lines[0].strip() == "[front]"]
    assert len(blocks) == 1, "docs/architecture.md: one block holding `python -m explorer.layers`'s output"
    run = subprocess.run([sys.executable, "-m", "explorer.layers"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert _layer_lines("\n".join(blocks[0])) == _layer_lines(run.stdout), (
        "docs/architecture.md's layer listing is out of date; paste the output of "
        f"`python -m explorer.layers`:\n{run.stdout}")
