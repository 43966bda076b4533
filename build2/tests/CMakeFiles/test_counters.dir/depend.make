# Empty dependencies file for test_counters.
# This may be replaced when dependencies are built.
