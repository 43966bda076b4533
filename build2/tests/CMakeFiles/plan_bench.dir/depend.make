# Empty dependencies file for plan_bench.
# This may be replaced when dependencies are built.
