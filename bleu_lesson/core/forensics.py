"""The forensics lab of chapter 08 (exercise 8.2): a system output, its references and
the score "a paper reported" for it, with its settings unknown.

These are the exercise's givens and nothing else: which sacrebleu setting explains the
gap to sacrebleu's default score is for the learner to find by re-scoring, so the
reported score is stored as the number a paper would print, not computed here.

>>> len(FORENSICS_HYPS) == len(FORENSICS_REFS) == 4
True
>>> forensics_reported()
68.51
"""

from __future__ import annotations

__all__ = ["FORENSICS_HYPS", "FORENSICS_REFS", "forensics_reported"]

#: the system output
FORENSICS_HYPS = ("the cat sat on a mat.", "there is a dog in the yard.",
                  "it rained all day long in paris.", "we will meet again next week.")
#: one reference per segment
FORENSICS_REFS = ("The cat sat on the mat.", "There is a dog in the garden.",
                  "It rained all day in Paris.", "We will meet again next week.")
#: the corpus BLEU the paper printed (0-100, two decimals)
_REPORTED = 68.51


def forensics_reported() -> float:
    """The corpus BLEU (0-100) a paper reported for FORENSICS_HYPS against FORENSICS_REFS.

    >>> forensics_reported()
    68.51
    """
    return _REPORTED
