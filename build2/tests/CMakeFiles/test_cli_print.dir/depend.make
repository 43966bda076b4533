# Empty dependencies file for test_cli_print.
# This may be replaced when dependencies are built.
