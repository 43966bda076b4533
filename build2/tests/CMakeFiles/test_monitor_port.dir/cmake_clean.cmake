file(REMOVE_RECURSE
  "CMakeFiles/test_monitor_port.dir/fakes/fake_fabric.c.o"
  "CMakeFiles/test_monitor_port.dir/fakes/fake_fabric.c.o.d"
  "CMakeFiles/test_monitor_port.dir/fakes/fake_umad.c.o"
  "CMakeFiles/test_monitor_port.dir/fakes/fake_umad.c.o.d"
  "CMakeFiles/test_monitor_port.dir/unit/test_monitor_port.c.o"
  "CMakeFiles/test_monitor_port.dir/unit/test_monitor_port.c.o.d"
  "test_monitor_port"
  "test_monitor_port.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_monitor_port.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
