# Empty dependencies file for host_read_bench.
# This may be replaced when dependencies are built.
