"""The learner's workspace: exercise copies only, the course untouched, a learner's work
never overwritten without --force, and model answers on request."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from notebook_tools import BEGIN, END, NOTEBOOK_DIR, ROOT, chapters, load, solution_blocks, source

from bleu_lesson.grading import workspace as ws
from bleu_lesson.grading.course import STUB, is_predict_cell

CHAPTERS = chapters()
pytestmark = pytest.mark.skipif(not CHAPTERS, reason="no chapter notebooks yet")


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(autouse=True)
def signatures(tmp_path, monkeypatch):
    """The notebook signature store of these tests: a temporary one, not the user's."""
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))


@pytest.fixture
def course(tmp_path):
    """A copy of the course's notebooks (tests change a chapter as an update would)."""
    folder = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOK_DIR, folder)
    return folder


def test_first_use_writes_exercise_copies_and_a_start_page(course, tmp_path):
    before = _digests(NOTEBOOK_DIR)
    room = tmp_path / "room"
    updates = ws.prepare_workspace(room, course)
    names = sorted(p.name for p in room.glob("*.ipynb"))
    assert names == sorted([p.name for p in CHAPTERS] + [ws.START_PAGE])
    assert {u.action for u in updates} == {"new"}
    for path in room.glob("[0-9]*.ipynb"):
        text = path.read_text(encoding="utf-8")
        nb = json.loads(text)
        assert BEGIN not in text and END not in text, path.name
        assert nb["metadata"]["bleu_lesson"]["student_copy"] is True
        assert not [c for c in nb["cells"] if is_predict_cell(c) and c["outputs"]]
        assert "Explorer(children=" not in text, f"{path.name} shows a widget's repr"
    for path in CHAPTERS:  # every solution of the chapter is absent from its copy
        copy_text = (room / path.name).read_text(encoding="utf-8")
        for cell in load(path)["cells"]:
            if cell["cell_type"] != "code":
                continue
            for block in solution_blocks(source(cell)):
                body = "\n".join(block.body).strip()
                if body:
                    assert json.dumps(body, ensure_ascii=False)[1:-1] not in copy_text
    page = load(room / ws.START_PAGE)
    text = "\n".join(source(c) for c in page["cells"])
    for path in CHAPTERS:  # the course map links every chapter
        assert f"]({path.name})" in text
    assert "solution(" in text and "课程地图" in text
    assert _digests(NOTEBOOK_DIR) == before, "making the workspace changed notebooks/"
    assert (room / ".gitignore").read_text() == "*\n"


def test_a_second_run_keeps_everything(course, tmp_path):
    room = tmp_path / "room"
    ws.prepare_workspace(room, course)
    first = _digests(room)
    assert {u.action for u in ws.prepare_workspace(room, course)} == {"kept"}
    assert _digests(room) == first


def _edit_chapter(path: Path, text: str) -> None:
    nb = load(path)
    nb["cells"].append({"cell_type": "markdown", "id": "added", "metadata": {},
                        "source": text})
    path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def test_an_update_never_overwrites_the_learners_work(course, tmp_path):
    room = tmp_path / "room"
    ws.prepare_workspace(room, course)
    mine, other = room / CHAPTERS[2].name, room / CHAPTERS[3].name
    nb = load(mine)
    cell = next(c for c in nb["cells"] if STUB in source(c))
    cell["source"] = source(cell).replace(STUB, "# my own attempt")
    mine.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    saved = mine.read_bytes()
    _edit_chapter(course / mine.name, "新的一段 (new in the course)")
    _edit_chapter(course / other.name, "另一段 (also new)")

    updates = {u.name: u for u in ws.prepare_workspace(room, course)}
    assert mine.read_bytes() == saved, "the learner's copy was replaced"
    beside = room / (mine.stem + ".新版.ipynb")
    assert updates[mine.name].action == "beside" and updates[mine.name].path == beside
    assert "新的一段" in beside.read_text(encoding="utf-8")
    assert updates[other.name].action == "updated"  # untouched: simply the new version
    assert "另一段" in other.read_text(encoding="utf-8")

    forced = {u.name: u for u in ws.prepare_workspace(room, course, force=True)}
    assert forced[mine.name].action == "forced"
    assert "新的一段" in mine.read_text(encoding="utf-8")
    assert "# my own attempt" not in mine.read_text(encoding="utf-8")


def test_force_replaces_every_chapter_the_learner_changed_even_when_the_course_did_not(
        course, tmp_path, capsys):
    """A learner's find: ``--force`` reported "11 chapters, 0 written" and kept the changed
    chapters (the course had not changed since), while the README says it replaces them all."""
    room = tmp_path / "room"
    ws.prepare_workspace(room, course)
    pristine = {p.name: p.read_bytes() for p in room.glob("[0-9]*.ipynb")}
    mine = room / CHAPTERS[4].name
    nb = load(mine)
    cell = next(c for c in nb["cells"] if STUB in source(c))
    cell["source"] = source(cell).replace(STUB, "# my own attempt")
    mine.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")

    assert ws.main(["--course", str(course), "--workspace", str(room), "--force"]) == 0
    err = capsys.readouterr().err
    assert f"{mine.name}: forced" in err and ", 1 written)" in err, err
    assert {p.name: p.read_bytes() for p in room.glob("[0-9]*.ipynb")} == pristine
    # the manifest knows the copy is the course's again: a later run keeps it
    assert {u.action for u in ws.prepare_workspace(room, course)} == {"kept"}


def test_the_workspace_may_not_be_the_course(course):
    with pytest.raises(ValueError, match="is the course's folder"):
        ws.prepare_workspace(course, course)


def test_a_folder_without_chapters_is_refused_in_one_line(tmp_path, capsys):
    assert ws.main(["--course", str(tmp_path), "--workspace", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds no chapter notebooks" in err
    assert not (tmp_path / "w").exists()


def test_the_default_workspace_is_ignored_by_git():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    probe = ROOT / "workspace" / "04_brevity_penalty.ipynb"
    done = subprocess.run(["git", "check-ignore", "-q", str(probe)], cwd=ROOT)
    assert done.returncode == 0, "workspace/ is not in .gitignore"
    assert ws.default_workspace(NOTEBOOK_DIR) == ROOT / "workspace" or \
        ws.WORKSPACE_ENV in __import__("os").environ


def test_solution_prints_the_authoring_notebooks_answer(course, tmp_path, capsys):
    from bleu_lesson.teaching.exercises import EXERCISES

    ex = EXERCISES["4.1"]
    nb = load(course / "04_brevity_penalty.ipynb")
    cell = next(source(c) for c in nb["cells"]
                if BEGIN in source(c) and ex.answer_name in source(c))
    body = "\n".join(solution_blocks(cell)[0].body)
    assert ws.solution("4.1", course) is None  # printed once, not also returned and echoed
    text = capsys.readouterr().out
    assert body in text and BEGIN not in text and END not in text


def test_solution_finds_the_course_from_the_workspace(course, tmp_path, monkeypatch, capsys):
    room = tmp_path / "room"
    ws.prepare_workspace(room, course)
    path = course / "04_brevity_penalty.ipynb"  # the course the manifest names, not the clone's
    nb = load(path)
    for cell in nb["cells"]:
        if BEGIN in source(cell):
            cell["source"] = source(cell).replace(END, "# only in this copy\n" + END, 1)
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(room)  # a workspace notebook's kernel runs here
    ws.solution("4.1")
    assert "# only in this copy" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["9.9", "", "4"])
def test_solution_of_an_unknown_exercise_names_the_argument(bad, capsys):
    """A learner's find: solution("4.3") was a red English traceback; it is a note, in
    Chinese and English, naming the exercises there are."""
    assert ws.solution(bad) is None
    out = capsys.readouterr().out
    assert f"没有练习 {bad!r}" in out and "exercise must be one of 1.1, 2.1" in out


def test_the_copies_are_trusted_so_their_explorers_draw_before_a_run(course, tmp_path):
    import nbformat
    from nbformat.sign import NotebookNotary

    room = tmp_path / "room"
    ws.prepare_workspace(room, course)
    notary = NotebookNotary()
    for path in sorted(room.glob("*.ipynb")):
        assert notary.check_signature(nbformat.read(path, as_version=4)), path.name
    outsider = nbformat.read(course / CHAPTERS[0].name, as_version=4)
    assert not notary.check_signature(outsider)  # the store does not trust everything


def _labextensions(env: dict) -> str:
    import sys

    done = subprocess.run([sys.executable, "-m", "jupyterlab.labextensions", "list"],
                          capture_output=True, text=True, env=env, timeout=120)
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)


def test_nbgrader_menus_are_only_in_the_instructors_lab():
    import os

    learner = ROOT / "jupyter-settings" / "learner"
    instructor = _labextensions({**os.environ})
    line = next((x for x in instructor.splitlines() if "@jupyter/nbgrader " in x), None)
    if line is None:
        pytest.skip("nbgrader's lab extension is not installed here")
    assert "enabled" in line  # the instructor's plain `jupyter lab` keeps it
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(learner)}  # as make lab starts the lab
    learner_line = next(x for x in _labextensions(env).splitlines() if "@jupyter/nbgrader " in x)
    assert "disabled" in learner_line


def test_lab_opens_the_start_page_in_the_workspace_without_nbgrader(course, tmp_path,
                                                                     monkeypatch):
    import os

    (course.parent / "jupyter-settings").symlink_to(ROOT / "jupyter-settings")
    calls = []
    monkeypatch.setattr(os, "execve", lambda program, argv, env: calls.append((argv, env)))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")  # restored after the test
    user_config = tmp_path / "user-config"
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(user_config))
    monkeypatch.delenv("JUPYTERLAB_SETTINGS_DIR", raising=False)
    monkeypatch.delenv("JUPYTERLAB_WORKSPACES_DIR", raising=False)
    room = tmp_path / "room"
    assert ws.main(["--course", str(course), "--workspace", str(room), "--lab", "--",
                    "--no-browser", "--port", "9999"]) == 0
    ((argv, env),) = calls
    assert argv[1:3] == ["-m", "jupyterlab"] and argv[3] == str(room / ws.START_PAGE)
    lab_args = [a for a in argv if a != "--allow-root"]
    assert f"--ServerApp.root_dir={room}" in argv and lab_args[-3:] == ["--no-browser", "--port",
                                                                       "9999"]
    # JupyterLab refuses root without --allow-root: added as root, never otherwise
    assert ("--allow-root" in argv) == (os.geteuid() == 0)
    learner = course.parent / "jupyter-settings" / "learner"
    # the learner's config first (no nbgrader), then the user's own config folder, still read
    assert env["JUPYTER_CONFIG_PATH"] == os.pathsep.join([str(learner), str(user_config)])
    # the config folder is the workspace's, holding the CSS that --LabApp.custom_css loads;
    # the user's lab settings stay where JupyterLab keeps them for that user
    assert "--LabApp.custom_css=True" in argv
    css = Path(env["JUPYTER_CONFIG_DIR"]) / "custom" / "custom.css"
    assert css.parent.parent.parent == room
    assert ".jupyter-widgets-disconnected::before" in css.read_text(encoding="utf-8")
    assert env["JUPYTERLAB_SETTINGS_DIR"] == str(user_config / "lab" / "user-settings")
    # the lab's layout (open tabs) is this workspace's: not the tabs of a lab run elsewhere
    assert Path(env["JUPYTERLAB_WORKSPACES_DIR"]).is_relative_to(room)
    assert (room / ws.START_PAGE).exists()
    # the URL the lab prints with --no-browser (and `/`) leads to the start page, not the
    # launcher; served in tests/e2e/test_lab_start_url.py
    assert "--LabApp.default_url=/lab/tree/START_%E6%AC%A2%E8%BF%8E.ipynb" in argv


def test_a_default_url_of_the_learners_own_wins(course, tmp_path, monkeypatch):
    import os

    calls = []
    monkeypatch.setattr(os, "execve", lambda program, argv, env: calls.append(argv))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")
    assert ws.main(["--course", str(course), "--workspace", str(tmp_path / "room"), "--lab",
                    "--", "--ServerApp.default_url=/lab"]) == 0
    (argv,) = calls
    assert [a for a in argv if re.match(r"--\w+\.default_url=", a)] == [
        "--ServerApp.default_url=/lab"]


def test_the_start_page_opens_unmodified_and_names_the_data_chapters_of_the_registry():
    """A learner's find: JupyterLab rewrote the start page's thin metadata on opening (shown as
    modified), and the page said 08-10 need the data where the registry says 09 and 10."""
    from bleu_lesson.teaching.chapters import registry

    page = ws.start_page([(ch.notebook, ch.title) for ch in registry().values()])
    meta = page["metadata"]
    chapter = load(ROOT / "notebooks" / "00_introduction.ipynb")["metadata"]
    assert meta["kernelspec"] == chapter["kernelspec"]
    assert {k: v for k, v in meta["language_info"].items() if k != "version"} == {
        k: v for k, v in chapter["language_info"].items() if k != "version"}
    # the version the kernel reports (ipykernel: this Python's), or the lab copies it in and
    # marks the page modified the moment it opens it (tests/e2e/test_first_view.py)
    import sys

    assert meta["language_info"]["version"] == "{}.{}.{}".format(*sys.version_info[:3])
    text = "".join(c["source"] for c in page["cells"])
    needs = [ch.id for ch in registry().values() if ch.needs_data]
    assert f"第 {'、'.join(needs)} 章要用 WMT22 数据" in text and "08–10" not in text


def test_the_start_page_says_plainly_which_chapters_need_the_data_and_how_to_get_it():
    """A learner's review: chapters 09/10 stopped at their first data cell; the start page
    only said, inside a sentence on Run All, that they "say how to download" then."""
    from bleu_lesson.data.datasets import WMT22_ENV_VAR
    from bleu_lesson.teaching.chapters import registry

    page = ws.start_page([(ch.notebook, ch.title) for ch in registry().values()])
    needs = [ch for ch in registry().values() if ch.needs_data]
    (cell,) = [c["source"] for c in page["cells"] if c["source"].startswith("## ")
               and "WMT22" in c["source"].splitlines()[0]]
    assert "make data" in cell and WMT22_ENV_VAR in cell and "MB" in cell
    for ch in needs:  # each data chapter linked from that section
        assert f"]({ch.notebook})" in cell
