# Empty dependencies file for lint_print_facts.
# This may be replaced when dependencies are built.
