"""The engine's options (``goengine.options``), shared by every front end's command line, read into
an ``EngineConfig``: the defaults, the board, the komi, the budget, one thread per core unless
told, the choices and their ``KEY=VALUE`` parameters in any order."""

from __future__ import annotations

from goengine import config as config_module
from goengine.config import EngineConfig, SearchConfig
from goengine.gtp.command import build_parser
from goengine.options import config_from_args


def configured(*argv: str) -> EngineConfig:
    """The configuration ``goengine ARGV`` would run with."""
    return config_from_args(build_parser().parse_args(list(argv)))


# ---- options into the configuration


def test_without_options_the_configuration_is_the_librarys_but_with_one_thread_per_core(monkeypatch):
    monkeypatch.setattr(config_module, "available_cores", lambda: 2)
    assert configured() == EngineConfig(search=SearchConfig(threads=2))


def test_size_komi_playouts_and_seconds_reach_the_configuration():
    config = configured("--size", "13", "--komi", "-3.5", "--playouts", "500", "--seconds", "2.5")
    assert (config.size, config.komi) == (13, -3.5)
    assert (config.search.playouts, config.search.seconds) == (500, 2.5)


def test_the_choices_are_read_by_name_in_any_case():
    search = configured("--rule", "UCB1", "--playout", "Uniform", "--parallel", "ROOT", "--dynkomi", "none").search
    assert (search.rule, search.playout, search.parallel, search.dynkomi) == ("ucb1", "uniform", "root", "none")


def test_parameters_apply_to_the_choice_named_anywhere_on_the_line():
    """``--param`` before ``--rule`` still belongs to the rule named: the choices are made first."""
    before = configured("--param", "c=0.5", "--rule", "ucb1").search
    after = configured("--rule", "ucb1", "--param", "c=0.5").search
    assert before == after == SearchConfig(rule="ucb1", params=(("c", 0.5),), threads=before.threads)


def test_repeated_parameters_add_up_and_are_read_by_name_or_words_with_blanks_around():
    search = configured("--param", "k = 500", "--param", "minimum_MSE_bias_b=0.1", "--playout-param", "nakade=0").search
    assert search.rule == "rave" and search.params == (("b", 0.1), ("k", 500.0))
    assert search.playout_params == (("nakade", 0.0),)


def test_a_later_value_of_the_same_parameter_wins():
    assert configured("--param", "k=500", "--param", "k=700").search.params == (("k", 700.0),)


def test_ponder_alone_on_the_command_line_turns_it_on():
    parse = build_parser().parse_args
    assert config_from_args(parse(["--ponder"])).search.ponder is True
    assert config_from_args(parse(["--ponder", "off"])).search.ponder is False
    assert config_from_args(parse([])).search.ponder is False


def test_the_command_searches_with_one_thread_per_core_unless_told(monkeypatch):
    monkeypatch.setattr(config_module, "available_cores", lambda: 3)
    parse = build_parser().parse_args
    assert config_from_args(parse([])).search.threads == 3
    assert config_from_args(parse(["--threads", "1"])).search.threads == 1
    assert SearchConfig().threads == 1  # the library's default, for Python users and the tests
    assert "default one per core: 3 here" in " ".join(build_parser().format_help().split())
