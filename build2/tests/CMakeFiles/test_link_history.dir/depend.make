# Empty dependencies file for test_link_history.
# This may be replaced when dependencies are built.
