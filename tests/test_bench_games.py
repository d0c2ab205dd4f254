"""The whole-engine A/B (``bench/games.py``): two versions played game for game over GTP, which
games differ and from which move, the CPU seconds of a move read by ``cputime``. Fake engines
stand in for goengine (a package named ``goengine`` whose ``__main__`` speaks GTP), so nothing
compiles; the figures themselves go to ``docs/performance.md``."""

import sys
import textwrap

import games  # bench/games.py: pytest's pythonpath (pyproject.toml) holds bench/
import pytest

# A GTP engine that plays the points of a line in an order set by its --seed (and by SHIFT, which
# tells two versions apart), spends CPU on each genmove and reports its own CPU time.
FAKE_MAIN = textwrap.dedent(
    """
    import sys, time
    args = sys.argv[1:]
    seed = int(args[args.index("--seed") + 1])
    played = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "genmove":
            end = time.process_time() + 0.01
            while time.process_time() < end:
                pass
            column = "ABCDEFGHJ"[(seed * 3 + played * (1 + SHIFT * (played >= 2))) % 9]
            print(f"= {column}{1 + played % 9}\\n", flush=True)
            played += 1
        elif words[0] == "cputime":
            print(f"= {time.process_time():.6f}\\n", flush=True)
        elif words[0] == "quit":
            print("=\\n", flush=True)
            break
        else:
            print("=\\n", flush=True)
    """
)


def fake_tree(path, shift: int):
    (path / "goengine").mkdir(parents=True)
    (path / "goengine" / "__init__.py").write_text("")
    (path / "goengine" / "__main__.py").write_text(f"SHIFT = {shift}\n" + FAKE_MAIN)
    return path


def test_a_directory_with_a_goengine_package_is_its_own_tree(tmp_path):
    tree = fake_tree(tmp_path / "a", 0)
    assert games.source_tree(str(tree)) == tree.resolve()


def test_neither_a_tree_nor_a_revision_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="neither a goengine tree nor a git revision"):
        games.source_tree(str(tmp_path / "nothing-here"))


def test_a_game_is_played_by_genmove_with_the_seed_and_its_cpu_seconds_read(tmp_path):
    tree = fake_tree(tmp_path / "a", 0)
    game = games.play_game(tree, 9, seed=2, moves=4, playouts=100, extra=[])
    assert game["moves"] == ["g1", "h2", "j3", "a4"]  # columns (6 + k) % 9, rows 1 + k
    assert len(game["seconds"]) == 4
    assert all(0.005 < s < 1.0 for s in game["seconds"])  # each genmove burnt 0.01 s of CPU


def test_the_same_engine_plays_the_same_games_and_another_differs_where_it_does(tmp_path):
    same, other = fake_tree(tmp_path / "a", 0), fake_tree(tmp_path / "b", 1)
    rows = games.compare([same, same], [9], seeds=2, moves=5, playouts=100, extra=[])
    assert rows[9]["same_games"] and rows[9]["first_difference"] == {}
    rows = games.compare([same, other], [9], seeds=2, moves=5, playouts=100, extra=[])
    assert not rows[9]["same_games"]
    assert rows[9]["first_difference"] == {1: 2, 2: 2}  # SHIFT changes the moves from the third on


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [(["d4", "e5"], ["d4", "e5"], None), (["d4", "e5"], ["d4", "f5"], 1), (["d4"], ["d4", "pass"], 1)],
)
def test_first_difference(a, b, expected):
    assert games.first_difference(a, b) == expected


def test_the_command_runs_the_trees_engine_with_one_thread_the_budget_and_the_seed(tmp_path):
    command, env = games.engine_command(tmp_path, 7, 500, ["--prior", "none"])
    assert command[:3] == [sys.executable, "-m", "goengine"]
    assert command[3:] == ["--threads", "1", "--playouts", "500", "--seed", "7", "--prior", "none"]
    assert env["PYTHONPATH"] == str(tmp_path)


def test_the_options_for_both_engines_come_after_the_double_dash_wherever_the_others_are():
    """(Before: ``games.py REV --sizes 9 -- --rule ucb1`` was refused, argparse having filled its
    positionals before it met the ``--``.)"""
    from games import parse_args

    args = parse_args(["1481d85", "--sizes", "9", "--playouts", "500", "--", "--playout", "uniform", "--seed", "3"])
    assert (args.before, args.sizes, args.playouts) == ("1481d85", [9], 500)
    assert args.engine_args == ["--playout", "uniform", "--seed", "3"]
    args = parse_args(["a", "b", "--json"])
    assert (args.before, args.after, args.json, args.engine_args) == ("a", "b", True, [])
