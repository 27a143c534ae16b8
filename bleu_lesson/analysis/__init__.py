"""What the later chapters measure with the core: significance (bootstrap, paired tests,
Holm), agreement with human judgments, the tool presets of chapter 08, and the cached metric
tables (with how they were made). Read by lecturers and by chapters 08-10."""
