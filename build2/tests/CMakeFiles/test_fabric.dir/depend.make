# Empty dependencies file for test_fabric.
# This may be replaced when dependencies are built.
