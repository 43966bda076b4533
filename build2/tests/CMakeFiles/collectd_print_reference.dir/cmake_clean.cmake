file(REMOVE_RECURSE
  "CMakeFiles/collectd_print_reference.dir/__/collectd-plugin/cd_fabric_values.c.o"
  "CMakeFiles/collectd_print_reference.dir/__/collectd-plugin/cd_fabric_values.c.o.d"
  "CMakeFiles/collectd_print_reference.dir/__/collectd-plugin/cd_values.c.o"
  "CMakeFiles/collectd_print_reference.dir/__/collectd-plugin/cd_values.c.o.d"
  "CMakeFiles/collectd_print_reference.dir/collectd/print_reference.c.o"
  "CMakeFiles/collectd_print_reference.dir/collectd/print_reference.c.o.d"
  "collectd_print_reference"
  "collectd_print_reference.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/collectd_print_reference.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
