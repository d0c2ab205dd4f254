"""The start-up benchmark (``bench/startup.py``): the memory it reads from ``/proc``, a GTP session
with an engine started as a controller starts it (a small fake engine that grows its memory in
the background, as goengine loads its kernels), the medians and the targets. The figures
themselves are ``docs/performance.md``'s."""

import resource
import sys
import textwrap

import pytest
import startup  # bench/startup.py: pytest's pythonpath (pyproject.toml) holds bench/

# A GTP engine that answers name at once, then takes 40 MB more in a background thread a moment
# later (what the settled reading must wait for), and 20 MB more on genmove.
FAKE = textwrap.dedent(
    """
    import sys, threading, time
    held = []
    def grow():
        time.sleep(0.3)
        held.append(bytearray(40 * 2**20))
    threading.Thread(target=grow, daemon=True).start()
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if command == "name":
            print("= fake\\n", flush=True)
        elif command == "genmove":
            held.append(bytearray(20 * 2**20))
            print("= D4\\n", flush=True)
        elif command == "quit":
            print("=\\n", flush=True)
            break
        elif command == "bad":
            print("? no such thing\\n", flush=True)
        else:
            print("=\\n", flush=True)
    """
)


@pytest.fixture
def fake_command(tmp_path):
    path = tmp_path / "fake_gtp.py"
    path.write_text(FAKE)
    return [sys.executable, str(path)]


def test_memory_mb_reads_this_processs_resident_memory_and_peak():
    rss, peak = startup.memory_mb(__import__("os").getpid())
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    assert 0 < rss <= peak
    assert peak == pytest.approx(own_peak, rel=0.05)


def test_a_run_waits_for_memory_taken_in_the_background_and_reads_it_after_genmove(fake_command):
    row = startup.engine_run(fake_command, ("goengine-set playouts 10",))
    assert row["move"] == "D4"
    assert 0 < row["name"] < 10
    assert row["ready_mb"] >= 40  # the background 40 MB were counted before genmove
    assert row["after_mb"] >= row["ready_mb"] + 15  # and genmove's 20 MB after it
    assert row["peak_mb"] >= row["after_mb"]
    assert row["first_move"] >= row["name"] + row["genmove"]  # from the start, the set-up between


def test_a_cold_run_reads_the_memory_at_once_not_once_it_settles(fake_command, monkeypatch):
    """On a cold cache the memory grows for as long as the kernels compile: it is read as the
    set-up ends, and the first move timed from there."""
    monkeypatch.setattr(startup, "settled_memory_mb", lambda pid: pytest.fail("waited for the memory to settle"))
    row = startup.engine_run(fake_command, (), settle=False)
    assert row["move"] == "D4" and row["ready_mb"] > 0


def test_a_refused_command_is_an_error_naming_it(fake_command):
    session = startup.Session(fake_command)
    try:
        assert session.ask("name") == "fake"
        with pytest.raises(RuntimeError, match="'bad' failed: \\? no such thing"):
            session.ask("bad")
    finally:
        session.close()
    assert session.process.returncode == 0


def test_an_engine_that_dies_is_an_error_not_a_hang(tmp_path):
    path = tmp_path / "dies.py"
    path.write_text("import sys\nsys.stdin.readline()\nsys.exit(3)\n")
    session = startup.Session([sys.executable, str(path)])
    with pytest.raises(RuntimeError, match="closed its output"):
        session.ask("name")
    session.close()


def test_medians_and_targets():
    runs = [
        {"name": 0.2, "ready_mb": 200.0, "after_mb": 300.0, "move": "D4"},
        {"name": 0.9, "ready_mb": 260.0, "after_mb": 320.0, "move": "Q16"},
        {"name": 0.4, "ready_mb": 240.0, "after_mb": 400.0, "move": "D4"},
    ]
    row = startup.median_row(runs)
    assert row == {"name": 0.4, "ready_mb": 240.0, "after_mb": 320.0, "runs": 3}
    assert startup.verdicts(row | {"model": 0.31}) == {
        "name": True,
        "ready_mb": True,
        "after_mb": True,
        "model": False,
    }
