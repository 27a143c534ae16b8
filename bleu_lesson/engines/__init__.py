"""Counting engines: how a test set's clipped n-gram counts are made (never what they are)."""
