file(REMOVE_RECURSE
  "CMakeFiles/test_congestion_sweep.dir/fakes/fake_fabric.c.o"
  "CMakeFiles/test_congestion_sweep.dir/fakes/fake_fabric.c.o.d"
  "CMakeFiles/test_congestion_sweep.dir/fakes/fake_umad.c.o"
  "CMakeFiles/test_congestion_sweep.dir/fakes/fake_umad.c.o.d"
  "CMakeFiles/test_congestion_sweep.dir/unit/test_congestion_sweep.c.o"
  "CMakeFiles/test_congestion_sweep.dir/unit/test_congestion_sweep.c.o.d"
  "test_congestion_sweep"
  "test_congestion_sweep.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_congestion_sweep.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
