# Empty dependencies file for test_fabric_dot.
# This may be replaced when dependencies are built.
