# Empty dependencies file for test_fixture_util.
# This may be replaced when dependencies are built.
