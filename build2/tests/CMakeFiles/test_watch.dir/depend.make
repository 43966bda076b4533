# Empty dependencies file for test_watch.
# This may be replaced when dependencies are built.
