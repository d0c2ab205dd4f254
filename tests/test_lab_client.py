"""GtpClient against tiny fake engines: Python scripts written to ``tmp_path``.

One fake engine (``FAKE_ENGINE``) reads GTP commands and does what each command name says:
answer, fail, answer over several lines, answer late, hang, crash, flood stderr, print
garbage. Start-up options make variants of it: ``--flood-at-start`` (megabytes on stderr before
reading anything), ``--ignore-quit`` (never exits on its own), ``--exit-at-start``.
"""

import signal
import sys
import textwrap
import time

import pytest

from goengine.lab.client import (
    GtpClient,
    GtpClientError,
    GtpEngineDied,
    GtpError,
    GtpProtocolError,
    GtpTimeout,
)

FAKE_ENGINE = textwrap.dedent(
    r'''
    """A fake GTP engine for the client's tests."""
    import os
    import sys
    import time

    opts = set(sys.argv[1:])
    out, err = sys.stdout, sys.stderr
    if "--exit-at-start" in opts:
        err.write("cannot start: no config\n")
        sys.exit(2)
    if "--flood-at-start" in opts:
        err.write("x" * (4 << 20) + "\nflood done\n")
        err.flush()


    def respond(cid, text="", ok=True):
        out.write(("=" if ok else "?") + cid + " " + text + "\n\n")
        out.flush()


    moves = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cid = words.pop(0) if words[0].isdigit() else ""
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            respond(cid)
            if "--ignore-quit" in opts:
                time.sleep(3600)
            break
        elif cmd == "name":
            respond(cid, "fake")
        elif cmd == "echo":
            respond(cid, " ".join(args))
        elif cmd == "play":
            moves += 1
            respond(cid)
        elif cmd == "moves":
            respond(cid, str(moves))
        elif cmd == "fail":
            respond(cid, "illegal move", ok=False)
        elif cmd == "multi":
            out.write("=" + cid + " line one\nline two\n  line three\n\n")
            out.flush()
        elif cmd == "board":  # an empty first line, as GNU Go's showboard answers
            out.write("=" + cid + " \n   A B\n 2 . . 2\n 1 . . 1\n   A B\n\n")
            out.flush()
        elif cmd == "crlf":
            out.write("=" + cid + " windows\r\n\r\n")
            out.flush()
        elif cmd == "slow":
            time.sleep(float(args[0]))
            respond(cid, "slow " + args[0])
        elif cmd == "halves":  # half a response now, the rest later
            out.write("=" + cid + " first half\n")
            out.flush()
            time.sleep(float(args[0]))
            out.write("second half\n\n")
            out.flush()
        elif cmd == "hang":
            time.sleep(3600)
        elif cmd == "crash":
            err.write("fatal: segmentation fault after " + str(moves) + " moves\n")
            err.flush()
            os._exit(3)
        elif cmd == "flood":
            for _ in range(int(args[0])):
                err.write("d" * 1023 + "\n")
            err.write("flood end\n")
            err.flush()
            respond(cid, "flooded")
        elif cmd == "garbage":
            out.write("hello, I am not GTP\n\n")
            out.flush()
        elif cmd == "wrongid":
            respond(str(int(cid or 0) + 100), "wrong")
        elif cmd == "deaf":  # stop reading input
            respond(cid)
            time.sleep(3600)
        else:
            respond(cid, "unknown command", ok=False)
    '''
)


@pytest.fixture
def fake(tmp_path):
    """A factory: ``fake(*options, **client_kwargs)`` starts the fake engine under a GtpClient."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    clients = []

    def start(*options, **kwargs):
        kwargs.setdefault("timeout", 5.0)
        client = GtpClient([sys.executable, "-u", str(script), *options], **kwargs)
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.close(timeout=0.5)


# ---- responses


def test_send_returns_the_text_without_the_prefix_and_the_closing_blank_line(fake):
    engine = fake()
    assert engine.send("name") == "fake"
    assert engine.send("echo  a   b ") == "a b"
    assert engine.send("play b C3") == ""


def test_multiline_response_is_joined_with_newlines(fake):
    engine = fake()
    assert engine.send("multi") == "line one\nline two\n  line three"


def test_empty_first_line_of_a_multiline_response_is_dropped_and_indentation_kept(fake):
    engine = fake()
    assert engine.send("board") == "   A B\n 2 . . 2\n 1 . . 1\n   A B"


def test_carriage_returns_are_dropped(fake):
    engine = fake()
    assert engine.send("crlf") == "windows"
    assert engine.send("name") == "fake"


def test_failure_response_raises_gtp_error_with_the_message_and_the_engine_stays_usable(fake):
    engine = fake()
    with pytest.raises(GtpError) as info:
        engine.send("fail")
    assert str(info.value) == "illegal move"
    assert info.value.command == "fail"
    assert engine.send("name") == "fake"
    with pytest.raises(GtpError, match="unknown command"):
        engine.send("no_such_command")


def test_ids_are_sent_with_each_command_and_checked_in_the_response(fake):
    engine = fake(use_ids=True)
    assert engine.send("echo one") == "one"
    assert engine.send("multi") == "line one\nline two\n  line three"
    with pytest.raises(GtpError, match="illegal move"):
        engine.send("fail")
    with pytest.raises(GtpProtocolError, match="id"):
        engine.send("wrongid")


def test_output_that_is_not_gtp_raises_protocol_error(fake):
    engine = fake()
    with pytest.raises(GtpProtocolError, match="not a GTP response"):
        engine.send("garbage")
    assert engine.send("name") == "fake"  # the garbage was read to its blank line


def test_a_command_must_be_one_non_empty_line(fake):
    engine = fake()
    for bad in ("", "   ", "name\nquit", "play b\rC3"):
        with pytest.raises(ValueError):
            engine.send(bad)
    assert engine.send("name") == "fake"


def test_argv_must_be_a_list_not_a_shell_string():
    with pytest.raises(TypeError):
        GtpClient("gnugo --mode gtp")
    with pytest.raises(ValueError):
        GtpClient([])


def test_a_missing_program_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        GtpClient([str(tmp_path / "no-such-engine")])


# ---- timeouts


def test_hanging_engine_raises_timeout_after_the_timeout_and_close_kills_it(fake):
    """The engine sleeps for an hour: ``send`` gives up after its 1 s (not before), with the
    engine still alive (a timeout, not a death); ``close`` then kills it (it cannot answer quit).
    The 10 s bounds (ten times what is expected) only guard against a client that waits for the
    engine."""
    engine = fake(timeout=1.0)
    assert engine.send("name") == "fake"
    start = time.monotonic()
    with pytest.raises(GtpTimeout):
        engine.send("hang")
    assert 0.9 <= time.monotonic() - start < 10.0  # 0.9: the timer's granularity
    assert engine.is_alive() and engine.returncode is None
    assert isinstance(GtpTimeout("x"), TimeoutError)
    start = time.monotonic()
    assert engine.close(timeout=0.3) == -signal.SIGKILL  # the hung engine ignores quit and is killed
    assert time.monotonic() - start < 10.0
    assert not engine.is_alive()


def test_per_command_timeout_overrides_the_default(fake):
    engine = fake(timeout=0.2)
    assert engine.send("slow 0.4", timeout=30.0) == "slow 0.4"
    with pytest.raises(GtpTimeout):
        engine.send("slow 0.4")


def test_a_late_response_to_a_timed_out_command_is_discarded(fake):
    engine = fake(timeout=0.2)
    with pytest.raises(GtpTimeout):
        engine.send("slow 0.5")
    # The engine answers "slow 0.5" later; the client must not return it for the next command.
    assert engine.send("echo next", timeout=30.0) == "next"
    assert engine.send("name") == "fake"


def test_a_response_cut_by_a_timeout_is_discarded_whole(fake):
    engine = fake(timeout=0.2)
    with pytest.raises(GtpTimeout):
        engine.send("halves 0.4")
    assert engine.send("echo next", timeout=30.0) == "next"
    assert engine.send("halves 0.05") == "first half\nsecond half"


def test_a_late_response_is_discarded_with_ids_too(fake):
    engine = fake(timeout=0.2, use_ids=True)
    with pytest.raises(GtpTimeout):
        engine.send("slow 0.5")
    assert engine.send("echo next", timeout=30.0) == "next"


def test_engine_that_stops_reading_its_input_makes_send_time_out(fake):
    """A megabyte cannot go into a pipe nobody reads: ``send`` raises its timeout instead of
    blocking on the write (the engine sleeps for an hour; 5 s, ten times the timeout, only guards
    against a client that blocks)."""
    engine = fake(timeout=0.5)
    engine.send("deaf")
    start = time.monotonic()
    with pytest.raises(GtpTimeout, match="stopped reading its input"):
        engine.send("echo " + "x" * (1 << 20))  # more than a pipe holds
    assert time.monotonic() - start < 5.0
    with pytest.raises(GtpClientError, match="middle of"):  # half a command went out: no way back
        engine.send("name")


# ---- dying engines


def test_engine_crashing_mid_game_raises_engine_died_with_exit_code_and_stderr(fake):
    engine = fake()
    for vertex in ("C3", "D4", "E5"):
        engine.send(f"play b {vertex}")
    assert engine.send("moves") == "3"
    with pytest.raises(GtpEngineDied) as info:
        engine.send("crash")
    message = str(info.value)
    assert "exited with code 3" in message
    assert "segmentation fault after 3 moves" in message
    assert not engine.is_alive()
    with pytest.raises(GtpEngineDied):  # and on every later command
        engine.send("name")
    assert engine.close() == 3


def test_engine_exiting_at_start_raises_engine_died(fake):
    engine = fake("--exit-at-start")
    with pytest.raises(GtpEngineDied, match="code 2.*cannot start"):
        engine.send("name")


def test_engine_died_and_timeout_are_client_errors():
    for cls in (GtpError, GtpTimeout, GtpEngineDied, GtpProtocolError):
        assert issubclass(cls, GtpClientError)


# ---- stderr


def test_stderr_flood_does_not_block_the_engine_and_only_a_bounded_tail_is_kept(fake):
    engine = fake(stderr_limit=4096)
    assert engine.send("flood 8192") == "flooded"  # 8 MiB of stderr in one command
    assert engine.send("name") == "fake"
    deadline = time.monotonic() + 30.0  # the drain runs in its own thread: wait for its last read
    while "flood end" not in engine.stderr_tail() and time.monotonic() < deadline:
        time.sleep(0.01)
    tail = engine.stderr_tail()
    assert len(tail) <= 4096
    assert tail.endswith("flood end\n")
    assert engine.stderr_bytes >= 8 << 20


def test_stderr_flood_before_the_first_command_does_not_block(fake):
    engine = fake("--flood-at-start")
    assert engine.send("name") == "fake"
    assert engine.send("flood 1024") == "flooded"


# ---- shutdown


def test_close_sends_quit_and_the_engine_exits_cleanly(fake):
    engine = fake()
    engine.send("name")
    assert engine.close() == 0
    assert engine.close() == 0  # twice is fine
    with pytest.raises(GtpClientError, match="closed"):
        engine.send("name")


def test_close_kills_an_engine_that_does_not_exit_after_quit(fake):
    """The engine answers quit, then sleeps for an hour: ``close`` waits its 0.3 s and kills it
    (10 s only guards against a close that waits for the engine)."""
    engine = fake("--ignore-quit")
    assert engine.send("name") == "fake"
    start = time.monotonic()
    code = engine.close(timeout=0.3)
    assert time.monotonic() - start < 10.0
    assert code == -signal.SIGKILL  # killed, not exited


def test_context_manager_closes_the_engine(fake, tmp_path):
    engine = fake()
    with engine as client:
        assert client.send("name") == "fake"
    assert engine.returncode == 0
    assert not engine.is_alive()
