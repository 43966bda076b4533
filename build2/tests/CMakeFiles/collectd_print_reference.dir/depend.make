# Empty dependencies file for collectd_print_reference.
# This may be replaced when dependencies are built.
