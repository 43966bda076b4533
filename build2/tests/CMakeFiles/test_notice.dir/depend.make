# Empty dependencies file for test_notice.
# This may be replaced when dependencies are built.
