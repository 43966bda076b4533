# Empty dependencies file for test_fabric_helper.
# This may be replaced when dependencies are built.
