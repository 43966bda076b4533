# Empty dependencies file for test_watch_plan.
# This may be replaced when dependencies are built.
