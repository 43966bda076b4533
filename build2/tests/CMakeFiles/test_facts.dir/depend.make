# Empty dependencies file for test_facts.
# This may be replaced when dependencies are built.
