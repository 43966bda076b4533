# Empty dependencies file for test_plan.
# This may be replaced when dependencies are built.
