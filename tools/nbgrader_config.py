# nbgrader configuration for bleu-lesson: copy this file into your nbgrader course folder
# (next to source/) as nbgrader_config.py, or append it to the one you have.
# With it, `nbgrader generate_assignment` writes the same student version as
# `bleu-lesson student`, and `nbgrader autograde` counts a failed check(...) as 0 points.
import os

c = get_config()  # noqa: F821 - nbgrader provides get_config when it reads this file

# Our markers and our stub (bleu_lesson.grading.course.NBGRADER_BEGIN / _END / _CODE_STUB).
c.ClearSolutions.begin_solution_delimeter = "### BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "### END SOLUTION"
c.ClearSolutions.code_stub = {"python": "# 在这里写代码\nraise NotImplementedError"}

# check("X.Y", answer) prints its verdict; nbgrader only sees exceptions. Under this
# variable (bleu_lesson.teaching.exercises.RAISE_ENV) check also raises AssertionError unless the
# answer passes. The kernels that nbgrader starts inherit it; a learner's own kernel
# does not have it, so the student version still prints "还没有完成" instead of crashing.
os.environ["BLEU_LESSON_CHECK_RAISES"] = "1"
