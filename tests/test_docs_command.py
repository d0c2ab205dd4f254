"""``goengine docs``: the user's documents reach a user from the installed package, not only from
a clone (issue 46: a wheel's README had 37 relative links and no way to the docs, and
``goengine analysis --help`` cited a ``docs/gtp.md`` that was not installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from goengine import docs_command
from goengine.docs_command import TOPICS, main, path_of

ROOT = Path(__file__).resolve().parent.parent


def test_every_topic_names_a_document_of_the_checkout():
    for topic, file, _ in TOPICS:
        path = path_of(topic)
        assert path is not None and path.is_file(), topic
        assert path == (ROOT / file if file == "README.md" else ROOT / "docs" / file)


def test_the_list_then_one_document_then_a_name_it_does_not_know(capsys):
    assert main([]) == 0
    listed = capsys.readouterr().out
    assert all(f"  {topic}" in listed for topic, _, _ in TOPICS) and "goengine docs NAME" in listed
    assert main(["gtp"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "gtp.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        main(["nothing"])
    assert refused.value.code == 2 and "invalid choice: 'nothing'" in capsys.readouterr().err


def test_an_installed_package_reads_its_own_copies(tmp_path, monkeypatch, capsys):
    """Without a checkout's ``docs/`` beside it, the package's copies (a build makes them) are read;
    with neither, the command says so and exits 1."""
    package = tmp_path / "site" / "goengine"
    (package / "docs").mkdir(parents=True)
    (package / "docs" / "gtp.md").write_text("# the copy\n")
    (package / "docs" / "README.md").write_text("# the readme's copy\n")
    monkeypatch.setattr(docs_command, "PACKAGE", package)
    assert main(["gtp"]) == 0 and capsys.readouterr().out == "# the copy\n"
    assert main(["readme"]) == 0 and capsys.readouterr().out == "# the readme's copy\n"
    assert main(["--path"]) == 0 and capsys.readouterr().out == f"{package / 'docs'}\n"
    assert main(["engine"]) == 1 and "engine is not in" in capsys.readouterr().err
    (package / "docs" / "gtp.md").unlink()
    assert main([]) == 1 and "no documents here" in capsys.readouterr().err


def test_the_command_line_reaches_it_and_the_help_names_it():
    done = subprocess.run([sys.executable, "-m", "goengine", "docs"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "gtp" in done.stdout
    helped = subprocess.run([sys.executable, "-m", "goengine", "analysis", "--help"], capture_output=True, text=True)
    assert "goengine docs gtp" in helped.stdout and "docs/gtp.md" not in helped.stdout
