file(REMOVE_RECURSE
  "CMakeFiles/test_probe_ports.dir/unit/test_probe_ports.c.o"
  "CMakeFiles/test_probe_ports.dir/unit/test_probe_ports.c.o.d"
  "test_probe_ports"
  "test_probe_ports.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_probe_ports.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
