# Empty dependencies file for test_cli_facts.
# This may be replaced when dependencies are built.
