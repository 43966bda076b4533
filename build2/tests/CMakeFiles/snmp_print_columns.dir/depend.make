# Empty dependencies file for snmp_print_columns.
# This may be replaced when dependencies are built.
