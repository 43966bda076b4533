# Empty dependencies file for test_health.
# This may be replaced when dependencies are built.
