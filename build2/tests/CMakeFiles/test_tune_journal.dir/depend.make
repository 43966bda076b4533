# Empty dependencies file for test_tune_journal.
# This may be replaced when dependencies are built.
