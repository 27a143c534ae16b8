"""The instructor's side: student copies and the learner's workspace, and ``bleu-lesson
check``, which runs each submission in a sandboxed kernel and judges the plain values it
sends back in a world without the answer key (judge, world, wire, sandbox)."""
