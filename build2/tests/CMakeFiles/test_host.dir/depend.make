# Empty dependencies file for test_host.
# This may be replaced when dependencies are built.
