# Empty dependencies file for test_array.
# This may be replaced when dependencies are built.
