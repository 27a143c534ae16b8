"""The packaging files agree with each other and keep their promises.

- pyproject.toml is the single source of dependencies; environment.yml (conda / Binder) must
  list the same packages and install the package itself through its pip section.
- ``import bleu_lesson`` stays light: the heavy libraries load only in the modules that use them.
- The README documents the two entry points, and CI passes the WMT22 data to the tests.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip(
        "tomli", reason="Python 3.10 reads pyproject.toml with tomli: pip install tomli")

ROOT = Path(__file__).resolve().parents[1]

# Names that are not Python distributions (or are the installer itself) in environment.yml.
NOT_PYTHON_PACKAGES = {"python", "pip"}


def normalize(name: str) -> str:
    """Package name for comparison: lowercase, runs of ``-``, ``_``, ``.`` become ``-``.

    >>> normalize("JupyterLab_Widgets")
    'jupyterlab-widgets'
    """
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def split_requirement(req: str) -> tuple[str, str]:
    """Split ``"sacrebleu>=2.3,<3"`` into a normalized name and its version constraint.

    >>> split_requirement("sacrebleu >=2.3, <3")
    ('sacrebleu', '>=2.3,<3')
    >>> split_requirement("nbformat")
    ('nbformat', '')
    """
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$", req)
    assert match, f"cannot parse requirement {req!r}"
    constraint = match.group(3).split(";", 1)[0]
    return normalize(match.group(1)), re.sub(r"\s+", "", constraint)


def load_pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def pyproject_requirements() -> dict[str, str]:
    project = load_pyproject()["project"]
    reqs = list(project["dependencies"]) + list(project["optional-dependencies"]["test"])
    return dict(split_requirement(r) for r in reqs)


def parse_environment_yml(text: str) -> tuple[list[str], list[str]]:
    """The conda and the pip entries of an environment.yml, read with PyYAML.

    >>> parse_environment_yml('''
    ... name: x
    ... dependencies:
    ...   - python>=3.10  # comment
    ...   - pip
    ...   - pip:
    ...       - -e .
    ... ''')
    (['python>=3.10', 'pip'], ['-e .'])
    """
    import yaml

    spec = yaml.safe_load(text)
    assert isinstance(spec, dict), "environment.yml must be a mapping"
    conda: list[str] = []
    pip: list[str] = []
    for item in spec.get("dependencies") or []:
        if isinstance(item, dict):
            assert set(item) == {"pip"}, f"unexpected mapping in dependencies: {item}"
            pip.extend(str(x) for x in item["pip"])
        else:
            conda.append(str(item))
    return conda, pip


def environment_requirements() -> tuple[dict[str, str], list[str]]:
    conda, pip = parse_environment_yml((ROOT / "environment.yml").read_text(encoding="utf-8"))
    # a package conda-forge may not carry is listed under pip: (the package itself, ".", aside)
    reqs = dict(split_requirement(item) for item in [*conda, *(p for p in pip if p != ".")])
    for name in NOT_PYTHON_PACKAGES:
        reqs.pop(name, None)
    return reqs, pip


def test_environment_yml_lists_the_same_packages_as_pyproject():
    conda, _ = environment_requirements()
    pyproject = pyproject_requirements()
    assert set(conda) == set(pyproject), (
        f"only in environment.yml: {sorted(set(conda) - set(pyproject))}; "
        f"only in pyproject.toml: {sorted(set(pyproject) - set(conda))}"
    )


def test_environment_yml_uses_the_same_version_constraints():
    conda, _ = environment_requirements()
    pyproject = pyproject_requirements()
    differ = {n: (pyproject[n], conda[n]) for n in pyproject if conda.get(n) != pyproject[n]}
    assert not differ, f"pyproject.toml vs environment.yml constraints differ: {differ}"


def test_environment_yml_installs_python_pip_and_the_package_itself():
    conda, pip = parse_environment_yml((ROOT / "environment.yml").read_text(encoding="utf-8"))
    names = {split_requirement(item)[0] for item in conda}
    assert {"python", "pip"} <= names
    python_constraint = dict(split_requirement(item) for item in conda)["python"]
    # repo2docker (Binder) only reads a pin of the form python=3.X; a range is ignored and
    # it falls back to its own default Python. The pin must satisfy requires-python.
    pin = re.fullmatch(r"=(\d+)\.(\d+)", python_constraint)
    assert pin, f"pin Python as python=3.X for repo2docker, got python{python_constraint}"
    minimum = re.fullmatch(r">=(\d+)\.(\d+)",
                           load_pyproject()["project"]["requires-python"].replace(" ", ""))
    assert minimum, "requires-python should be a plain >=3.X"
    assert tuple(map(int, pin.groups())) >= tuple(map(int, minimum.groups()))
    assert any(re.fullmatch(r"(-e\s+|--editable[= ]\s*)?\.", item) for item in pip), (
        f"the pip section must install the package itself ('- .'), got {pip}"
    )


def test_widgets_come_with_their_jupyterlab_extension():
    # ipywidgets 8 without jupyterlab_widgets 3: "Error displaying widget: model not found".
    runtime = dict(split_requirement(r) for r in load_pyproject()["project"]["dependencies"])
    assert "ipywidgets" in runtime
    assert "jupyterlab-widgets" in runtime


def test_pyproject_metadata():
    data = load_pyproject()
    project = data["project"]
    assert project["name"] == "bleu-lesson"
    assert project["version"] == "0.1.0"
    assert project["scripts"]["bleu-lesson"] == "bleu_lesson.__main__:main"
    # the package and every subpackage (core/, teaching/chapters/, ...) are installed
    include = data["tool"]["setuptools"]["packages"]["find"]["include"]
    assert "bleu_lesson" in include and "bleu_lesson.*" in include
    # every data file in the package is matched by its package's package-data globs
    package_data = data["tool"]["setuptools"]["package-data"]
    for path in (ROOT / "bleu_lesson").rglob("*"):
        if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        package = ".".join(path.parent.relative_to(ROOT).parts)
        assert any(path.match(g) for g in package_data.get(package, ())), (
            f"{path.relative_to(ROOT)} is not in [tool.setuptools.package-data] {package!r}")
    assert (ROOT / "bleu_lesson" / "py.typed").exists()


def test_package_version_matches_pyproject():
    import bleu_lesson

    version = getattr(bleu_lesson, "__version__", None)
    if version is None:
        pytest.fail("bleu_lesson has no __version__: it must match pyproject.toml")
    assert version == load_pyproject()["project"]["version"]


def test_import_bleu_lesson_does_not_load_heavy_libraries():
    heavy = ("matplotlib", "ipywidgets", "sacrebleu")
    code = f"import sys, bleu_lesson\nprint(' '.join(m for m in {heavy!r} if m in sys.modules))\n"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert not loaded, f"`import bleu_lesson` imported {loaded}; import them where they are used"


def test_nbval_reads_both_sanitize_patterns():
    plugin = pytest.importorskip(
        "nbval.plugin", reason="nbval is not installed: run `make venv` (the test extra)")
    text = (ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8")
    patterns = dict(plugin.get_sanitize_patterns(text))
    assert patterns == {
        r"0x[0-9a-fA-F]+": "0xADDRESS",
        r"/tmp/ipykernel_\d+/\d+\.py": "IPYKERNEL_TMP",
    }
    sample = "<Figure at 0x7f3a9c2b1d90> in /tmp/ipykernel_4242/1234567890.py, line 3"
    for regex, replace in patterns.items():
        sample = re.sub(regex, replace, sample)
    assert sample == "<Figure at 0xADDRESS> in IPYKERNEL_TMP, line 3"


def test_readme_documents_make_lab_and_make_test():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in readme
    assert "make test" in readme


def test_ci_script_is_bash_and_passes_the_wmt22_data():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    first_line = script.splitlines()[0]
    assert re.fullmatch(r"#!\s*(/usr/bin/env\s+bash|/bin/bash|/usr/bin/bash)\b.*", first_line)
    assert "set -euo pipefail" in script
    assert "BLEU_LESSON_WMT22_DIR" in script


def test_readme_course_map_is_the_chapter_registry():
    """One row per chapter of the registry, in order, naming its notebook and (a short form
    of) its Chinese title; and no notebook on disk that the registry does not know."""
    from bleu_lesson.teaching.chapters import registry

    chapters = list(registry().values())
    on_disk = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [c.notebook for c in chapters] == on_disk
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Course map", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in table.splitlines() if line.startswith("| `notebooks/")]
    assert [r[0] for r in rows] == [f"`notebooks/{c.notebook}`" for c in chapters]
    for row, chapter in zip(rows, chapters, strict=True):
        chinese = chapter.title.split(" (")[0]
        assert chinese.startswith(row[1]), f"{chapter.notebook}: {row[1]!r} vs {chinese!r}"
