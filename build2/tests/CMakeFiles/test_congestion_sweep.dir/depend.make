# Empty dependencies file for test_congestion_sweep.
# This may be replaced when dependencies are built.
