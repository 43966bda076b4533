# Empty dependencies file for test_mad_queue.
# This may be replaced when dependencies are built.
