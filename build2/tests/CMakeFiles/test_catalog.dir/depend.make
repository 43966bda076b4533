# Empty dependencies file for test_catalog.
# This may be replaced when dependencies are built.
