"""pytest plugin (``-p bleu_lesson.cli._pytest_nbschema`` in pyproject's addopts).

pytest imports ``-p`` plugins before the installed ones such as nbval, which imports
nbformat; importing this module first applies :func:`bleu_lesson.cli.nbschema.skip_iri_grammar`
in the test process and in every xdist worker.
"""

from bleu_lesson.cli.nbschema import skip_iri_grammar

skip_iri_grammar()
