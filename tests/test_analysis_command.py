"""``goengine analysis``'s command line (``goengine.analysis.command``): a KataGo config file read
as KataGo writes it, the keys goengine acts on turned into the queries' defaults and the number
of workers, the others noted on stderr, and a bad value refused. (The command over pipes, as a
client runs it: ``test_analysis_server.py``.)"""

from __future__ import annotations

import pytest

from goengine.analysis.command import analysis_defaults, build_analysis_parser, read_kata_config
from goengine.config import EngineConfig, SearchConfig


def test_a_kata_config_is_key_equals_value_lines_with_comments():
    text = "# analysis.cfg\nmaxVisits = 500   # per turn\n\nlogDir=analysis_logs\n  reportAnalysisWinratesAs=BLACK\n"
    assert read_kata_config(text) == {
        "maxVisits": "500",
        "logDir": "analysis_logs",
        "reportAnalysisWinratesAs": "BLACK",
    }


def test_the_keys_goengine_reads_become_the_defaults_and_the_others_are_noted():
    logged = []
    settings = {"maxVisits": "40", "analysisPVLen": "8", "numAnalysisThreads": "2", "homeDataDir": "/x"}
    settings["reportAnalysisWinratesAs"] = "white"
    defaults, workers = analysis_defaults(settings, EngineConfig(), logged.append)
    assert (defaults.max_visits, defaults.max_time, defaults.perspective, defaults.pv_length) == (40, None, "WHITE", 8)
    assert workers == 2 and logged == ["goengine analysis: config keys ignored: homeDataDir"]
    # without maxVisits, the engine's own budget
    defaults, workers = analysis_defaults({}, EngineConfig(search=SearchConfig(playouts=123)), logged.append)
    assert (defaults.max_visits, defaults.perspective, defaults.pv_length, workers) == (123, "SIDETOMOVE", 15, 1)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("reportAnalysisWinratesAs", "UP", "BLACK, WHITE or SIDETOMOVE"),
        ("maxVisits", "many", "not a number"),
        ("maxVisits", "0", "must be positive"),
        ("maxTime", "nan", "not a number: .nan."),
        ("maxTime", "inf", "not a number: .inf."),
        ("maxTime", "1_0", "not a number: .1_0."),
        ("numAnalysisThreads", "-1", "must be positive"),
    ],
)
def test_a_bad_value_is_refused_with_what_is_wrong(key, value, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        analysis_defaults({key: value}, EngineConfig(), lambda text: None)


def test_the_parser_takes_katagos_command_line():
    args = build_analysis_parser().parse_args(
        ["-model", "m.bin.gz", "-config", "a.cfg", "-override-config", "maxVisits=40", "-analysis-threads", "2"]
    )
    assert (args.model, args.config, args.override_config, args.analysis_threads) == (
        "m.bin.gz",
        "a.cfg",
        ["maxVisits=40"],
        2,
    )
