# Empty dependencies file for test_congestion.
# This may be replaced when dependencies are built.
