"""Build the web edition: a static site of every chapter, what ``make book`` runs.

    python tools/build_book.py                  # into build/book/ (the site: build/book/html/)
    python tools/build_book.py --out /tmp/book  # somewhere else

Jupyter Book 1.x (Sphinx + MyST-NB) builds it from the executed notebooks, never executing
them again, and offline: MathJax comes from the ``jupyter-server-mathjax`` package and no
page loads anything from another host. What a reader sees follows the learner's rules:

- each chapter is its student copy (``bleu_lesson.grading.course.make_student_copy``):
  the solutions replaced by stubs, the outputs of exercise cells cleared;
- a "predict, then run" cell's expected output is folded into a closed dropdown, and the
  output of the cell it predicts is folded too (MyST-NB's ``hide-output``);
- an explorer (ipywidgets) is shown as its saved state drew it, as plain HTML with its
  controls disabled, under a note saying how to run it live (``make lab`` or Binder);
- the first page is the course map: every chapter, its title and what it needs.

Exit status: 0 when the site was built, 1 when Jupyter Book failed, 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import copy
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_lesson.grading.course import make_student_copy  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
TITLE = "BLEU 分数计算与多参考译文评估"
#: A Binder launch of a GitHub repository: BINDER_FORMAT.format(repo="owner/name").
BINDER_FORMAT = "https://mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/notebooks"
LIVE_NOTE = ("交互实验 (explorer)：下面是本章保存时的画面，控件在网页版里不能操作。"
             "要拖动滑块、修改文本，请在 JupyterLab 里运行本章（仓库根目录 "
             "<code>make lab</code>），或在 Binder 上打开（见首页）。")
#: A markdown "predict, then run" cell: the expected output after this line is the answer.
#: (A fence the cell never closes runs to the cell's end, as Markdown renders it.)
EXPECTED = re.compile(r"预期输出 / Expected output:?\s*\n+```[^\n]*\n(.*?)(?:\n```|\Z)", re.S)
DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
#: Where MathJax 2 is inside the jupyter-server-mathjax package.
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full"


# --- explorers: their saved state as static HTML ------------------------------------------

def _ref(value: object) -> str | None:
    if isinstance(value, str) and value.startswith("IPY_MODEL_"):
        return value[len("IPY_MODEL_"):]
    return None


def _output_html(output: dict) -> str:
    """One stored output (of an Output widget) as HTML."""
    kind = output.get("output_type")
    if kind == "stream":
        text = output.get("text", "")
        return f"<pre>{html.escape(''.join(text) if isinstance(text, list) else text)}</pre>"
    data = output.get("data", {})
    if "image/png" in data:
        return f'<img alt="figure" src="data:image/png;base64,{data["image/png"]}">'
    if "text/html" in data:
        value = data["text/html"]
        return "".join(value) if isinstance(value, list) else value
    if "text/plain" in data:
        value = data["text/plain"]
        text = "".join(value) if isinstance(value, list) else value
        return f"<pre>{html.escape(text)}</pre>"
    return ""


def widget_html(model_id: str, state: dict, depth: int = 0) -> str:
    """The HTML a saved widget model draws, its controls disabled (no JavaScript needed).

    >>> state = {"b": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_s"]}},
    ...          "s": {"model_name": "IntSliderModel",
    ...                "state": {"description": "n", "value": 2, "min": 1, "max": 4}}}
    >>> drawn = widget_html("b", state)
    >>> drawn.startswith('<div class="bl-box bl-vbox"><label class="bl-control">n <input')
    True
    >>> 'type="range" min="1" max="4" value="2" disabled> <output>2</output>' in drawn
    True
    """
    model = state.get(model_id)
    if model is None or depth > 50:
        return ""
    name = model.get("model_name", "")
    s = model.get("state", {})
    desc = html.escape(str(s.get("description", "")))
    if name in ("VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel", "AccordionModel",
                "TabModel"):
        kind = "bl-hbox" if name == "HBoxModel" else "bl-vbox"
        inner = "".join(widget_html(r, state, depth + 1)
                        for r in map(_ref, s.get("children", [])) if r)
        return f'<div class="bl-box {kind}">{inner}</div>'
    if name in ("HTMLModel", "HTMLMathModel"):
        return f'<div class="bl-html">{s.get("value", "")}</div>'
    if name == "LabelModel":
        return f'<span class="bl-label">{html.escape(str(s.get("value", "")))}</span>'
    if name == "OutputModel":
        return ('<div class="bl-output">'
                + "".join(_output_html(o) for o in s.get("outputs", [])) + "</div>")
    if name in ("IntSliderModel", "FloatSliderModel", "FloatLogSliderModel"):
        value = s.get("value", "")
        return (f'<label class="bl-control">{desc} <input type="range" min="{s.get("min", "")}"'
                f' max="{s.get("max", "")}" value="{value}" disabled> <output>{value}</output>'
                "</label>")
    if name in ("IntRangeSliderModel", "FloatRangeSliderModel"):
        low, high = (s.get("value") or ["", ""])[:2]
        return f'<label class="bl-control">{desc} <output>{low} – {high}</output></label>'
    if name in ("TextModel", "IntTextModel", "FloatTextModel", "BoundedIntTextModel",
                "BoundedFloatTextModel"):
        value = html.escape(str(s.get("value", "")), quote=True)
        return (f'<label class="bl-control">{desc} <input type="text" value="{value}" '
                "disabled></label>")
    if name == "TextareaModel":
        value = html.escape(str(s.get("value", "")))
        return f'<label class="bl-control">{desc} <textarea disabled>{value}</textarea></label>'
    if name in ("CheckboxModel", "ToggleButtonModel"):
        checked = " checked" if s.get("value") else ""
        return (f'<label class="bl-control"><input type="checkbox"{checked} disabled> '
                f"{desc}</label>")
    if name in ("RadioButtonsModel", "DropdownModel", "SelectModel", "ToggleButtonsModel"):
        labels = s.get("_options_labels", [])
        chosen = s.get("index")
        items = "".join(
            f'<li><input type="radio" disabled{" checked" if k == chosen else ""}> '
            f"{html.escape(str(label))}</li>" for k, label in enumerate(labels))
        return f'<div class="bl-control">{desc}<ul class="bl-options">{items}</ul></div>'
    if name == "ButtonModel":
        label = html.escape(str(s.get("description", "")))
        return f'<button type="button" disabled>{label}</button>'
    return ""


def static_explorers(nb: dict) -> int:
    """Replace every widget view among the outputs by the HTML of its saved state under a
    note on running it live; drop the saved state (no widget JavaScript is loaded).
    Returns how many views were replaced."""
    state = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    replaced = 0
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if not isinstance(view, dict):
                continue
            drawn = widget_html(view.get("model_id", ""), state)
            if not drawn:
                drawn = "<p>（保存的画面里没有这个小部件的状态。）</p>"
            output["data"] = {"text/html": (f'<div class="bl-explorer"><p class="bl-live">'
                                            f"{LIVE_NOTE}</p>{drawn}</div>")}
            output.setdefault("metadata", {})
            replaced += 1
    nb.get("metadata", {}).pop("widgets", None)
    return replaced


# --- predictions: folded --------------------------------------------------------------

def fold_predictions(nb: dict) -> int:
    """Fold each "predict, then run" answer still in plain view: the expected output in the
    markdown cell into a closed dropdown, and the output of the code cell that follows into
    ``hide-output``. An answer the chapter already folds in ``<details>`` after its run cell
    stays as it is (a closed ``<details>`` is a fold in the page too; converting it nested a
    dropdown inside a closed block, where no reader could open it). Returns how many
    predictions were folded here."""
    folded = 0
    cells = nb.get("cells", [])
    for k, cell in enumerate(cells):
        if cell.get("cell_type") != "markdown":
            continue
        source = "".join(cell.get("source", ""))
        inside = [m.span() for m in DETAILS.finditer(source)]
        converted = 0

        def fold(m: re.Match, inside: list[tuple[int, int]] = inside) -> str:
            nonlocal converted
            if any(a <= m.start() < b for a, b in inside):
                return m.group(0)
            converted += 1
            return ("\n::::{dropdown} 预期输出 (Expected output)：先写下你的预测，再点开\n"
                    f"```\n{m.group(1).rstrip(chr(10))}\n```\n::::\n")

        new = EXPECTED.sub(fold, source)
        if not converted:
            continue
        cell["source"] = new
        folded += 1
        for later in cells[k + 1:]:
            if later.get("cell_type") == "code":
                tags = later.setdefault("metadata", {}).setdefault("tags", [])
                if "hide-output" not in tags:
                    tags.append("hide-output")
                break
    return folded


# --- the book -------------------------------------------------------------------------

def chapter_title(nb: dict, fallback: str) -> str:
    """The first heading of a notebook."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def course_map(chapters: list[tuple[str, str, bool]], binder: str | None = None) -> str:
    """The first page: what the course is, every chapter, and how to run it live (with a
    Binder link when ``binder`` is the URL of a Binder launch)."""
    if binder:
        on_binder = f"在 Binder 上：[在 Binder 中打开]({binder})"
    else:
        on_binder = ("在 Binder 上：仓库发布到 GitHub 后，地址是 "
                     f"`{BINDER_FORMAT.format(repo='<owner>/<repo>')}`")
    rows = "\n".join(
        f"| {name[:2]} | [{title}]({name}) | {'WMT22 数据' if needs else '—'} |"
        for name, title, needs in chapters)
    return f"""# {TITLE}

这是 bleu-lesson 课程的网页版 (web edition)：不用安装，直接阅读每一章、它保存的输出、
图和公式。练习只有题目、没有答案；"先预测，再运行 (Predict, then run)" 的预期输出折叠着，
先写下你的预测，再点开。

交互实验 (explorer) 在网页版里只显示保存时的画面。想动手操作、做练习并检查答案，有两种方式：

- 在自己的机器上：克隆仓库，在根目录运行 `make lab`（需要 Python 3.10+ 和 make）；
- {on_binder}（按仓库的 `environment.yml` 构建，第一次要等几分钟）。

## 课程地图 (Course map)

| 章 | 标题 | 需要 |
|---|---|---|
{rows}

第 8–10 章用到 WMT22 的真实数据；网页版里是作者机器上运行时保存的结果。
"""


CONFIG = """\
title: "{title}"
author: bleu-lesson contributors
copyright: ""
only_build_toc_files: true
execute:
  execute_notebooks: "off"
html:
  use_repository_button: false
  use_issues_button: false
  use_edit_page_button: false
  use_download_button: false
  use_fullscreen_button: false
  extra_footer: ""
launch_buttons:
  binderhub_url: ""
  thebe: false
parse:
  myst_enable_extensions: [colon_fence, dollarmath, amsmath]
sphinx:
  config:
    language: zh_CN
    html_static_path: [_static]
    html_extra_path: [_extra]
    html_css_files: [bleu-lesson.css]
    html_show_sphinx: false
    html_show_copyright: false
    mathjax_path: "../mathjax/MathJax.js?config={mathjax_config}"
    mathjax2_config:
      tex2jax:
        inlineMath: [["\\\\(", "\\\\)"]]
        displayMath: [["\\\\[", "\\\\]"]]
        processRefs: false
        processEnvironments: false
        processClass: "tex2jax_process|mathjax_process|math|output_area"
      messageStyle: none
      HTML-CSS:
        availableFonts: []
        preferredFont: null
        imageFont: null
        webFont: STIX-Web
      SVG:
        font: STIX-Web
      fast-preview:
        disabled: true
    nb_ipywidgets_js: {{}}
    suppress_warnings: [myst.header, mystnb.unknown_mime_type, myst.xref_missing]
"""

CSS = """\
.bl-explorer { border: 1px solid #c8d1dc; border-radius: 6px; padding: 0.6em 0.9em; }
.bl-live { font-size: 0.9em; color: #555; border-bottom: 1px dashed #c8d1dc;
           padding-bottom: 0.4em; }
.bl-box.bl-hbox { display: flex; gap: 1em; flex-wrap: wrap; }
.bl-control { display: block; margin: 0.3em 0; }
.bl-options { list-style: none; padding-left: 0.5em; margin: 0.2em 0; }
"""


def mathjax_folder() -> Path:
    """MathJax 2, as the ``jupyter-server-mathjax`` package ships it."""
    import jupyter_server_mathjax

    folder = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (folder / "MathJax.js").is_file():
        raise FileNotFoundError(f"MathJax.js not found in {folder}")
    return folder


def write_sources(src: Path, notebooks: list[Path],
                  binder: str | None = None) -> list[tuple[str, str, bool]]:
    """The book's source folder: config, table of contents, course map, chapters."""
    from bleu_lesson.teaching.chapters import registry

    needs = {ch.notebook for ch in registry().values() if ch.needs_data}
    if src.exists():
        shutil.rmtree(src)
    (src / "_static").mkdir(parents=True)
    # _extra/, not _static/: Jupyter Book adds every .js in _static to every page
    shutil.copytree(mathjax_folder(), src / "_extra" / "mathjax")
    (src / "_static" / "bleu-lesson.css").write_text(CSS, encoding="utf-8")
    chapters = []
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        student = make_student_copy(copy.deepcopy(nb), path.name)
        static_explorers(student)
        fold_predictions(student)
        (src / path.name).write_text(json.dumps(student, ensure_ascii=False, indent=1),
                                     encoding="utf-8")
        chapters.append((path.name, chapter_title(nb, path.stem), path.name in needs))
    (src / "intro.md").write_text(course_map(chapters, binder), encoding="utf-8")
    toc = ["format: jb-book", "root: intro", "chapters:"]
    toc += [f"- file: {Path(name).stem}" for name, _, _ in chapters]
    (src / "_toc.yml").write_text("\n".join(toc) + "\n", encoding="utf-8")
    (src / "_config.yml").write_text(
        CONFIG.format(title=TITLE, mathjax_config=MATHJAX_CONFIG), encoding="utf-8")
    return chapters


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "book",
                        help="folder to build into (default: build/book; the site is its "
                             "html/ folder)")
    parser.add_argument("--binder-repo", default=None, metavar="OWNER/REPO",
                        help="the GitHub repository the course is published in: the course "
                             "map links to its Binder launch (default: "
                             "$BLEU_LESSON_BINDER_REPO; without it, the map says how)")
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="chapters (default: every notebooks/NN_*.ipynb)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        if not path.is_file():
            parser.error(f"NOTEBOOK {str(path)!r} does not exist")
    out = args.out.resolve()
    if out == ROOT or ROOT.is_relative_to(out) or (out / ".git").exists():
        parser.error(f"--out {str(args.out)!r} would replace the repository; name a build "
                     "folder")
    src = out / "src"
    import os

    repo = args.binder_repo or os.environ.get("BLEU_LESSON_BINDER_REPO") or None
    if repo is not None and not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        parser.error(f"--binder-repo must be OWNER/REPO, got {repo!r}")
    binder = BINDER_FORMAT.format(repo=repo) if repo else None
    chapters = write_sources(src, notebooks, binder)
    print(f"book sources: {len(chapters)} chapters (student copies) in {src}", flush=True)
    jb = Path(sys.executable).with_name("jupyter-book")
    command = [str(jb) if jb.exists() else "jupyter-book", "build", str(src),
               "--path-output", str(out), "--builder", "html"]
    done = subprocess.run(command)
    if done.returncode != 0:
        print("jupyter-book build failed (its messages are above)", file=sys.stderr)
        return 1
    site = out / "_build" / "html"
    print(f"web edition: {site / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
