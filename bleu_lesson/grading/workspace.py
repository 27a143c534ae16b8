"""The learner's workspace: exercise copies of the chapters, in a folder of the learner's.

``make lab`` (or ``python -m bleu_lesson.grading.workspace --lab``) opens JupyterLab on a
*workspace*, not on the course's ``notebooks/``: a folder (``workspace/`` beside
``notebooks/``, which git ignores, or ``$BLEU_LESSON_WORKSPACE``) holding the student copy of
every chapter (``make_student_copy``: no solution, no answer to a prediction) and a start
page, ``START_欢迎.ipynb``. Nothing a learner saves there touches the course's files.

``prepare_workspace`` makes the copies on first use and, when the course changes, updates
only what the learner has not touched: a manifest (``.bleu-lesson-workspace.json``) records
the SHA-256 of each copy as written. A copy the learner has saved over is never replaced;
the new version is written beside it (``04_brevity_penalty.新版.ipynb``). With ``force`` every
chapter that differs from the course's exercise copy is replaced, changed course or not.

``solution("3.1")`` prints an exercise's model answer from the authoring notebook, for
self-study learners who have tried first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import quote

from bleu_lesson.data.datasets import DATASETS, WMT22_ENV_VAR, dataset
from bleu_lesson.teaching.chapters import registry
from bleu_lesson.teaching.exercises import EXERCISES

from .course import (
    BEGIN,
    END,
    _atomic_write,
    _read_notebook,
    _source,
    _write_text,
    make_student_copy,
)

__all__ = ["WORKSPACE_ENV", "START_PAGE", "START_URL", "MANIFEST", "LEARNER_CSS", "Update",
           "course_folder", "default_workspace", "lab_command", "prepare_workspace",
           "start_page", "solution", "main"]

WORKSPACE_ENV = "BLEU_LESSON_WORKSPACE"
START_PAGE = "START_欢迎.ipynb"
MANIFEST = ".bleu-lesson-workspace.json"
#: The page ``make lab`` opens, also from the URL it prints (``LabApp.default_url``).
START_URL = "/lab/tree/" + quote(START_PAGE)
UPDATED_SUFFIX = ".新版"
#: The lab's own config folder inside the workspace (hidden: the file browser skips it).
LAB_CONFIG = ".jupyter-lab"
#: CSS the learner's lab loads. A widget drawn from the notebook's saved state has no kernel
#: behind it yet, so ipywidgets marks it ``jupyter-widgets-disconnected`` and draws a red
#: broken-chain icon before it: on every explorer of a chapter not yet run. Not an error.
LEARNER_CSS = """\
/* bleu-lesson: no broken-chain icon on widgets drawn from saved state before a run */
.jupyter-widgets-disconnected::before,
.jupyter-widgets-disconnected:before {
  display: none !important;
  content: none !important;
}
"""
_CHAPTER_FILE = re.compile(r"^\d\d_[A-Za-z0-9_]+\.ipynb$")


def course_folder(course: str | Path | None = None) -> Path:
    """The course's chapter notebooks: ``course`` if given, else ``notebooks/`` of the
    clone this package runs from, else ``./notebooks``. ValueError when it has none."""
    if course is not None:
        folder = Path(course)
    else:
        clone = Path(__file__).resolve().parents[2] / "notebooks"
        folder = clone if clone.is_dir() else Path.cwd() / "notebooks"
    if not folder.is_dir() or not _chapters(folder):
        raise ValueError(f"course {str(folder)!r} holds no chapter notebooks (NN_name.ipynb): "
                         "run this from the course's clone, or give --course FOLDER")
    return folder


def default_workspace(course: Path) -> Path:
    """``$BLEU_LESSON_WORKSPACE`` if set, else ``workspace/`` beside the course's folder."""
    env = os.environ.get(WORKSPACE_ENV, "").strip()
    return Path(env) if env else course.resolve().parent / "workspace"


def _chapters(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.ipynb") if _CHAPTER_FILE.match(p.name))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _notebook_text(nb: dict) -> str:
    return json.dumps(nb, ensure_ascii=False, indent=1) + "\n"


@dataclass(frozen=True)
class Update:
    """What ``prepare_workspace`` did with one file: ``action`` is ``new`` (written),
    ``updated`` (the course changed, the learner had not touched it), ``kept`` (unchanged),
    ``beside`` (the learner changed it and the course too: the new version is ``path``) or
    ``forced`` (replaced with ``force``)."""

    name: str
    action: str
    path: Path

    def __str__(self) -> str:
        if self.action == "beside":
            return (f"{self.name}: the course changed and so did your copy; your copy is "
                    f"kept, the new version is {self.path.name}")
        return f"{self.name}: {self.action}"


def _title(nb: dict, fallback: str) -> str:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in _source(cell).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def start_page(chapters: Sequence[tuple[str, str]]) -> dict:
    """The start page (a notebook of markdown cells, in Chinese): the course map linking
    each chapter (``(file name, title)`` pairs), where to begin, how exercises and model
    answers work, and where the learner's files are.

    >>> page = start_page([("01_tokenization.ipynb", "第 1 章 分词")])
    >>> "[第 1 章 分词](01_tokenization.ipynb)" in page["cells"][1]["source"]
    True
    """
    rows = "\n".join(f"| {name[:2]} | [{title}]({name}) |" for name, title in chapters)
    needing = [ch for ch in registry().values() if ch.needs_data]
    needs = [ch.id for ch in needing]
    data_chapters = f"第 {'、'.join(needs)} 章" if needs else "没有哪一章"
    size = sum(dataset(name).size for name in DATASETS) / 1e6
    links = "、".join(f"[{ch.title}]({ch.notebook})" for ch in needing)
    first = chapters[0][0] if chapters else ""
    cells = [
        "# 欢迎来到 BLEU 课程 (Welcome)\n\n"
        "这门课从空格分词讲起，一步步搭出 BLEU (Bilingual Evaluation Understudy)，"
        "最后用它给真实的 WMT22 中英翻译系统打分，并和人工评价比较。\n\n"
        "这里是**你的工作区 (workspace)**：下面每一章都是练习版 (exercise copy)，"
        "没有参考答案；你在这里写的、保存的一切都只在这个文件夹里，不会改动课程本身。",
        "## 课程地图 (Course map)\n\n| 章 | 标题 |\n|---|---|\n" + rows,
        "## 从哪里开始 (Where to begin)\n\n"
        f"- 第一次学：从 [{first}]({first}) 开始，按顺序往下读。"
        "每章的最后有“下一章”的链接。\n"
        "- 打开一章后，选菜单 **运行 → 运行所有单元格 (Run All)**，或者从上到下逐个按 "
        f"`Shift+Enter`。{data_chapters}要用 WMT22 数据，见下面“WMT22 数据”一节。\n"
        "- 每章的“动手实验”是可以拖动、输入的小工具 (explorer)，打开时先显示保存的样子，"
        "运行单元格后才能交互。",
        "## WMT22 数据：第 " + "、".join(needs) + " 章要用 (Data for the real-data chapters)\n\n"
        f"{data_chapters}要用 WMT22 数据（{links}），课程不自带，要先下载一次"
        f"（约 {size:.0f} MB）：\n\n"
        "- 在课程文件夹里打开终端，运行 `make data`（已经有的文件不会重复下载）。\n"
        "- 机房没有外网时：把数据文件复制到一个文件夹，在启动 `make lab` 之前把环境变量 "
        f"`{WMT22_ENV_VAR}` 设为这个文件夹。\n"
        "- 没有数据时，这几章会在第一个读数据的单元格停下，并用中文说明该怎么办；"
        "其他各章不需要数据。",
        "## 练习和参考答案 (Exercises and model answers)\n\n"
        "- 练习单元格里写着 `# 在这里写代码`：把它换成你的代码，运行后面的 `check(...)` "
        "单元格，它会告诉你对不对；还没写时它说“还没有完成”，不会中断 Run All。\n"
        "- 文中说“先预测”的地方：先在心里（或纸上）写下你的预测，再运行单元格；"
        "答案在运行后的折叠框 (details) 里。\n"
        "- 自己试过以后想看参考答案：在任意单元格里运行\n\n"
        "  ```python\n  from bleu_lesson.grading.workspace import solution\n"
        "  solution(\"3.1\")   # 练习编号\n  ```",
        "## 你的文件 (Your files)\n\n"
        "- 课程更新时，你没有改过的章节会自动换成新版；你改过的章节不会被覆盖，"
        f"新版写在旁边（文件名带 `{UPDATED_SUFFIX}`）。\n"
        "- 想从头再来：删掉这一章的文件，再运行 `make lab`，会重新生成练习版。",
    ]
    return {
        "cells": [{"cell_type": "markdown", "id": f"start-{i}", "metadata": {},
                   "source": text} for i, text in enumerate(cells)],
        # a kernelspec, or JupyterLab asks the learner to choose a kernel for a page of text
        "metadata": {"bleu_lesson": {"start_page": True},
                     # as the chapters have them, so JupyterLab does not rewrite (and mark as
                     # modified) the page the moment it opens it
                     "kernelspec": {"display_name": "Python 3 (bleu-lesson)",
                                    "language": "python", "name": "python3"},
                     "language_info": {"codemirror_mode": {"name": "ipython", "version": 3},
                                       "file_extension": ".py", "mimetype": "text/x-python",
                                       "name": "python", "nbconvert_exporter": "python",
                                       "pygments_lexer": "ipython3",
                                       # the kernel reports its Python's version; the lab
                                       # copies it in (a change: the page was marked
                                       # modified) unless it is the one saved
                                       "version": platform.python_version()}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def _load_manifest(folder: Path) -> dict:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"files": {}}
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return {"files": {}}
    return data


def prepare_workspace(workspace: str | Path | None = None, course: str | Path | None = None,
                      *, force: bool = False) -> list[Update]:
    """Make or update the learner's workspace; returns what happened to each file.

    A file absent from the workspace is written. A file whose course version changed is
    replaced only if its bytes are still those written last time (the manifest's SHA-256);
    otherwise the new version goes beside it (``NN_name.新版.ipynb``) and the learner's file
    is left as it is. With ``force``, every file whose bytes differ from the course's current
    copy is replaced, whether the course changed or not. Refuses (ValueError) a workspace
    that is the course's folder itself.
    """
    source = course_folder(course)
    folder = Path(workspace) if workspace is not None else default_workspace(source)
    if folder.resolve() == source.resolve():
        raise ValueError(f"workspace {str(folder)!r} is the course's folder: the learner's "
                         "copies would overwrite the chapters")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"workspace {str(folder)!r} is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():  # a learner's work is never committed by accident
        ignore.write_text("*\n", encoding="utf-8")
    manifest = _load_manifest(folder)
    files: dict = manifest["files"]
    updates: list[Update] = []
    titles = []
    for path in _chapters(source):
        nb = _read_notebook(path)
        if nb is None:
            raise ValueError(f"{path} is not a readable notebook")
        titles.append((path.name, _title(nb, path.stem)))
        text = _notebook_text(make_student_copy(nb, path.name))
        updates.append(_place(folder, path.name, text, files, force))
    updates.append(_place(folder, START_PAGE, _notebook_text(start_page(titles)), files,
                          force=True if _untouched(folder / START_PAGE, files) else force))
    manifest["course"] = str(source.resolve())
    _atomic_write(folder / MANIFEST, partial(
        _write_text, text=json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"))
    return updates


def _untouched(target: Path, files: dict) -> bool:
    try:
        return _sha(target.read_bytes()) == files.get(target.name, {}).get("written")
    except OSError:
        return True


def _place(folder: Path, name: str, text: str, files: dict, force: bool) -> Update:
    """Write one file into the workspace under the rules of ``prepare_workspace``."""
    target = folder / name
    new_sha = _sha(text.encode("utf-8"))
    record = files.get(name, {})
    if not target.exists():
        action = "new"
    elif _sha(target.read_bytes()) == new_sha:  # already this version (the manifest may be lost)
        files[name] = {"course": new_sha, "written": new_sha}
        return Update(name, "kept", target)
    elif record.get("course") == new_sha and not force:  # the learner's work, course unchanged
        return Update(name, "kept", target)
    elif _untouched(target, files) and record:
        action = "updated"
    elif force:
        action = "forced"
    else:
        beside = target.with_name(target.stem + UPDATED_SUFFIX + target.suffix)
        _atomic_write(beside, partial(_write_text, text=text))
        _trust(beside)
        return Update(name, "beside", beside)
    _atomic_write(target, partial(_write_text, text=text))
    _trust(target)
    files[name] = {"course": new_sha, "written": new_sha}
    return Update(name, action, target)


def _trust(path: Path) -> None:
    """Mark a copy the course wrote as trusted (``jupyter trust``), so that JupyterLab draws
    its stored explorers from the saved widget state before anything runs (an untrusted
    notebook shows only their plain-text fallback). The learner's own saves are signed by
    JupyterLab itself. Without nbformat's signature store nothing is done."""
    try:
        import nbformat
        from nbformat.sign import NotebookNotary

        notary = NotebookNotary()
        notary.sign(nbformat.read(path, as_version=4))
    except Exception:  # a read-only home, no sqlite: the explorers appear after a run
        return


# --- model answers -----------------------------------------------------------------------

def _course_for_answers() -> Path:
    """The authoring notebooks: the folder the workspace's manifest names (the kernel of a
    workspace notebook runs in the workspace), else ``course_folder()``."""
    for folder in (Path.cwd(), *Path.cwd().parents[:1]):
        course = _load_manifest(folder).get("course")
        if isinstance(course, str) and Path(course).is_dir():
            return Path(course)
    return course_folder()


def solution(exercise: str, course: str | Path | None = None) -> None:
    """Print the model answer of an exercise (``"3.1"``): the cell of the authoring notebook
    that holds its solution. For after you have tried. Returns None, so a notebook shows the
    answer once (a returned string was shown a second time). An unknown exercise gets a
    one-line note in Chinese and English, not a traceback (a learner's find)."""
    key = str(exercise).strip()
    if key not in EXERCISES:
        known = ", ".join(EXERCISES)
        print(f"⚠ 没有练习 {exercise!r}：本课的练习是 {known}，例如 solution(\"4.1\")。\n"
              f"  (exercise must be one of {known}, got {exercise!r})")
        return
    ex = EXERCISES[key]
    folder = Path(course) if course is not None else _course_for_answers()
    path = folder / registry()[ex.chapter].notebook
    nb = _read_notebook(path)
    if nb is None:
        raise ValueError(f"the authoring notebook {path} is not here: the model answers live "
                         "in the course's notebooks/ folder")
    name = re.compile(rf"^\s*(def\s+{re.escape(ex.answer_name)}\b|{re.escape(ex.answer_name)}"
                      r"\s*(:[^=]*)?=)", re.M)
    cells = [_source(c) for c in nb["cells"]
             if c.get("cell_type") == "code" and BEGIN in _source(c) and name.search(_source(c))]
    if not cells:
        raise ValueError(f"no model answer for exercise {key} in {path}")
    body = "\n\n".join(line for cell in cells for line in [
        "\n".join(x for x in cell.split("\n") if x.strip() not in (BEGIN, END))])
    print(f"# 练习 {key} 的参考答案 (model answer)：先自己试过再看\n{body}")


# --- command line ------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bleu_lesson.grading.workspace [--lab] [--force] [-- LAB ARGS]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bleu_lesson.grading.workspace",
        description="Make or update the learner's workspace of exercise copies; with --lab, "
                    "then open JupyterLab on it (arguments after -- go to JupyterLab).")
    parser.add_argument("--course", help="the chapters' folder (default: notebooks/)")
    parser.add_argument("--workspace", help=f"the learner's folder (default: ${WORKSPACE_ENV}"
                        ", else workspace/ beside notebooks/)")
    parser.add_argument("--force", action="store_true",
                        help="replace chapters the learner changed (their work is lost)")
    parser.add_argument("--lab", action="store_true", help="then start JupyterLab on it")
    parser.add_argument("lab_args", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        source = course_folder(args.course)
        folder = Path(args.workspace) if args.workspace else default_workspace(source)
        updates = prepare_workspace(folder, source, force=args.force)
    except (ValueError, OSError) as exc:
        print(f"workspace: error: {exc}", file=sys.stderr)
        return 2
    changed = [u for u in updates if u.action != "kept"]
    for update in changed:
        print(f"workspace: {update}", file=sys.stderr)
    print(f"workspace: {folder} ({len(updates) - 1} chapters, {len(changed)} written)",
          file=sys.stderr)
    if not args.lab:
        return 0
    command, env = lab_command(folder, source, args.lab_args)
    os.execve(sys.executable, command, env)
    return 0  # pragma: no cover


def lab_command(folder: Path, source: Path, lab_args: Sequence[str] = (),
                environ: dict[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """The command and environment that open JupyterLab on workspace ``folder``.

    The lab loads ``LEARNER_CSS`` (``--LabApp.custom_css``, which JupyterLab reads only
    from ``$JUPYTER_CONFIG_DIR/custom/custom.css``): the config folder becomes one inside the
    workspace holding just that file, and the user's own config folder stays on
    ``JUPYTER_CONFIG_PATH``, their lab settings where they were. The lab's layout (its
    open tabs: JupyterLab's "workspaces") is kept in the course workspace's config folder,
    so the lab reopens this course's tabs, not those of a lab the user ran elsewhere
    (a learner's find: old tabs from another folder came back next to the start page).
    """
    from jupyter_core.paths import jupyter_config_dir

    env = dict(os.environ if environ is None else environ)
    command = [sys.executable, "-m", "jupyterlab", str(folder / START_PAGE),
               f"--ServerApp.root_dir={folder}", "--LabApp.custom_css=True", *lab_args]
    if not any("default_url" in a for a in lab_args):
        # the URL the lab prints (with --no-browser) and `/` lead to the start page too,
        # not to JupyterLab's launcher
        command.insert(5, f"--LabApp.default_url={START_URL}")
    if os.geteuid() == 0 and "--allow-root" not in command:  # JupyterLab refuses root without it
        command.append("--allow-root")
    # the user's own config folder, as this environment names it
    user = Path(env.get("JUPYTER_CONFIG_DIR") or jupyter_config_dir())
    env.setdefault("JUPYTERLAB_SETTINGS_DIR", str(user / "lab" / "user-settings"))
    paths = [str(user)]
    learner = source.resolve().parent / "jupyter-settings" / "learner"
    if learner.is_dir():  # the learner's lab: no nbgrader menus (see its page_config.json)
        paths.insert(0, str(learner))
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (*paths, env.get("JUPYTER_CONFIG_PATH", "")) if p)
    config = folder / LAB_CONFIG
    (config / "custom").mkdir(parents=True, exist_ok=True)
    css = config / "custom" / "custom.css"
    if not css.exists() or css.read_text(encoding="utf-8") != LEARNER_CSS:
        css.write_text(LEARNER_CSS, encoding="utf-8")
    env["JUPYTER_CONFIG_DIR"] = str(config)
    env.setdefault("JUPYTERLAB_WORKSPACES_DIR", str(config / "lab" / "workspaces"))
    return command, env


if __name__ == "__main__":
    raise SystemExit(main())
