"""The course around the core: one module per chapter (its exercises, quiz questions and
explorers) in ``chapters/``, the exercise and quiz machinery, the widgets, plots and
``show_source``. Read by course authors; the learner meets it through the notebooks."""
