"""The chapters' exercise cases and quiz questions, one module per chapter (``chNN.py``).

BRANCH ch10 PLACEHOLDER: a minimal package so that ``chapters/ch10.py`` exists on this
branch. Branch ``sandbox`` builds the real registry here; when merging, take sandbox's
``__init__.py`` and drop the two hooks marked "branch ch10" at the end of
``bleu_lesson/exercises.py`` and ``bleu_lesson/quiz.py``.
"""
