"""Where text comes from: the running examples, the WMT22 test set and human judgments
(fetched, hash-checked, found on disk), and one answer to "what is missing, and what do I tell
the user" (``data_missing``, ``doctor``). Imports nothing from the rest of the package."""
