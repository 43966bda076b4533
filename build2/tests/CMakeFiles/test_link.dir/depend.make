# Empty dependencies file for test_link.
# This may be replaced when dependencies are built.
