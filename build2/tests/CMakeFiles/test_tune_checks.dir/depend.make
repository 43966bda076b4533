# Empty dependencies file for test_tune_checks.
# This may be replaced when dependencies are built.
