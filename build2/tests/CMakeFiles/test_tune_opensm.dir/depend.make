# Empty dependencies file for test_tune_opensm.
# This may be replaced when dependencies are built.
