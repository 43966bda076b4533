file(REMOVE_RECURSE
  "CMakeFiles/snmp_print_columns.dir/snmp/print_columns.c.o"
  "CMakeFiles/snmp_print_columns.dir/snmp/print_columns.c.o.d"
  "snmp_print_columns"
  "snmp_print_columns.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/snmp_print_columns.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
