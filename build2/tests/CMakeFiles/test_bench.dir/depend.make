# Empty dependencies file for test_bench.
# This may be replaced when dependencies are built.
