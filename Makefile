# bleu-lesson: everything runs from a local virtualenv in .venv, built from pyproject.toml.
# Only python3 (3.11+) is needed to start; `make test` and `make lab` install what they need.

PYTHON ?= python3
VENV = .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed
LAB_SETTINGS = jupyter-settings/bleu-lesson.json

# Extra arguments: make test PYTEST_ARGS="-k clipping", make lab ARGS="--no-browser --port 9999"
PYTEST_ARGS ?=
ARGS ?=

# JupyterLab refuses to start as root without --allow-root.
ALLOW_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: help venv data test e2e lab lab-student notebooks lint bench book book-serve clean distclean

help:
	@echo "make lab        open your workspace of exercise copies in JupyterLab (ARGS=\"--no-browser --port 9999\")"
	@echo "make lab-student  open student/ (the copies without solutions; made first if absent)"
	@echo "make data       download the WMT22 data (test set + human judgments) into the user cache"
	@echo "make test       run every test: unit, doctests, notebooks, browser (PYTEST_ARGS=...)"
	@echo "                on 3 workers (WORKERS=N; with PYTEST_ARGS one, unless WORKERS is set)"
	@echo "make e2e        only the browser tests: each chapter in JupyterLab + Debian's Chromium"
	@echo "make book       build the web edition (static site) into build/book/_build/html/"
	@echo "make book-serve build it, then serve it on http://127.0.0.1:8000/"
	@echo "make notebooks  re-execute notebooks/[0-9]*.ipynb in place, each in a fresh kernel"
	@echo "                (chapters that need the WMT22 data are skipped without it)"
	@echo "make lint       ruff check (package, tests, benchmarks, tools, notebooks), then mypy"
	@echo "make bench      run benchmarks/bench_*.py (WMT22 data: make data, or BLEU_LESSON_WMT22_DIR;"
	@echo "                those that need it are skipped, one line each, without it;"
	@echo "                ARGS=\"--data FOLDER benchmarks/bench_cli.py\" passes options)"
	@echo "make venv       create .venv and install the package with its test extra"
	@echo "make clean      remove caches and build output (distclean also removes .venv)"

venv: $(STAMP)

# Re-installs only when pyproject.toml changes (or the venv is new).
$(STAMP): pyproject.toml $(LAB_SETTINGS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[test]"
	# the "python3" kernel inside the venv runs the venv's python (nbconvert, nbval, lab)
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (bleu-lesson)"
	# JupyterLab's defaults inside the venv: Chinese interface, no news popup (a wheel install
	# puts the same file there; an editable install does not, hence the copy)
	install -D -m 644 $(LAB_SETTINGS) $(VENV)/share/jupyter/lab/settings/overrides.d/bleu-lesson.json
	touch $@

# Downloads only what is missing or corrupted; safe to run again. DATA=wmt22 or wmt22-human.
DATA ?= all
data: venv
	$(BIN)/bleu-lesson data $(DATA)

# make test runs the whole suite on WORKERS processes (pytest-xdist): each test file (or a
# part of a long one; the browser tests in a few groups) stays on one worker, the slowest first
# (tests/conftest.py). Three workers on two cores: much of the suite waits on kernels,
# sandboxes and the browser, and a third worker fills that time. With PYTEST_ARGS (one
# file, -k ...) it runs in this process unless WORKERS is given:
# make test PYTEST_ARGS="-m wmt22" WORKERS=2.
WORKERS ?= $(if $(strip $(PYTEST_ARGS)),0,3)
XDIST = $(if $(filter-out 0,$(WORKERS)),-n $(WORKERS) --dist loadfile --no-loadscope-reorder)
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE=1):
# every worker and every kernel the tests start would otherwise compile the package and
# rewrite each test file's asserts again (__pycache__/ is ignored by git).
test: venv
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest $(XDIST) $(PYTEST_ARGS)

e2e: venv
	$(BIN)/pytest tests/e2e -m e2e $(PYTEST_ARGS)

# The learner's lab: a workspace of exercise copies (workspace/, ignored by git; made from
# notebooks/ on first use, updated without overwriting a learner's work), opened on its start
# page, without nbgrader's instructor menus (jupyter-settings/learner). Stop it with Ctrl-C;
# run `make test` in a second terminal (see the README).
lab: venv
	$(BIN)/python -m bleu_lesson.grading.workspace --lab -- $(ALLOW_ROOT) $(ARGS)

# The students' copies: written once (bleu-lesson student never overwrites without asking),
# then opened like `make lab` (as root with --allow-root).
lab-student: venv
	test -d student || $(BIN)/bleu-lesson student --out student/
	$(BIN)/jupyter lab student/ $(ALLOW_ROOT) $(ARGS)

# Each chapter in a fresh kernel (nbconvert --execute --inplace, no timing metadata); the
# chapters that need the WMT22 data are skipped, with how to get it, when it is absent.
# A failing chapter does not stop the others; the exit status says whether one failed.
notebooks: venv
	$(BIN)/python tools/run_notebooks.py

# ruff reads every Python file of the tree (notebooks' code cells too), with the minimum
# Python the package declares (pyproject.toml: requires-python and ruff's target-version)
lint: venv
	$(BIN)/ruff check bleu_lesson tests benchmarks tools notebooks
	$(BIN)/mypy bleu_lesson

# Every benchmark in its own process; one without the WMT22 data (exit 2 and its one line)
# is reported as skipped, the others still run; the summary names those that ran on the
# real data and every goal missed; the exit status says whether one failed.
# make bench ARGS="--data FOLDER benchmarks/bench_cli.py" passes the options on.
bench: venv
	$(BIN)/python tools/run_benchmarks.py $(ARGS)

# The web edition: every chapter's student copy (no solutions, predictions folded, explorers
# from their saved state) as a static site in build/book/_build/html/, built with Jupyter
# Book from the stored outputs (nothing is executed; no network). `make book-serve` serves
# it on http://127.0.0.1:8000/ (ARGS="--port 9000" ... are passed to python -m http.server).
# BINDER_REPO=owner/name: the course map links to that repository's Binder launch.
BINDER_REPO ?=
book: venv
	$(BIN)/python tools/build_book.py --out build/book $(if $(BINDER_REPO),--binder-repo $(BINDER_REPO))

book-serve: book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory build/book/_build/html $(ARGS)

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
	find . -path ./$(VENV) -prune -o -type d \( -name __pycache__ -o -name .ipynb_checkpoints \) -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
