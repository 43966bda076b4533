# Empty dependencies file for test_events.
# This may be replaced when dependencies are built.
