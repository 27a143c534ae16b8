"""``bleu_lesson.doctor()``: every package the chapters need, when missing, is a problem."""

from __future__ import annotations

import pytest

from bleu_lesson.data.doctor import check_environment, doctor

GOOD = {"sacrebleu": "2.6.0", "ipywidgets": "8.1.9", "jupyterlab_widgets": "3.0.17",
        "matplotlib": "3.11.2", "jupyterlab": "4.6.6", "nltk": "3.10.4"}


def test_a_complete_environment_has_no_problem():
    assert check_environment(GOOD, (3, 11)) == []


@pytest.mark.parametrize("dist,why", [
    ("nltk", "chapters 04-08"),
    ("jupyterlab", "the lab"),
    ("sacrebleu", "tokenizers"),
    ("matplotlib", "plots"),
])
def test_a_missing_package_is_a_problem_with_a_fix(dist, why):
    problems = check_environment({**GOOD, dist: None}, (3, 11))
    assert len(problems) == 1
    assert problems[0].what.startswith(f"{dist} is not installed") and why in problems[0].what
    assert "pip install" in problems[0].fix and "make venv" in problems[0].fix


def test_widget_versions_must_match():
    [problem] = check_environment({**GOOD, "jupyterlab_widgets": "1.1.0"}, (3, 11))
    assert "model not found" in problem.what and "jupyterlab_widgets==3.*" in problem.fix


def test_old_python():
    [problem] = check_environment(GOOD, (3, 9))
    assert "3.9 is too old" in problem.what


def test_doctor_in_this_environment_is_ok(capsys):
    doctor()
    out = capsys.readouterr().out
    for dist in GOOD:
        assert dist in out
    assert out.rstrip().endswith("✔ 环境正常 (environment OK)"), out
