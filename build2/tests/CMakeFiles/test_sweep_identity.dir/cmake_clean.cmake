file(REMOVE_RECURSE
  "CMakeFiles/test_sweep_identity.dir/fakes/fake_fabric.c.o"
  "CMakeFiles/test_sweep_identity.dir/fakes/fake_fabric.c.o.d"
  "CMakeFiles/test_sweep_identity.dir/fakes/fake_umad.c.o"
  "CMakeFiles/test_sweep_identity.dir/fakes/fake_umad.c.o.d"
  "CMakeFiles/test_sweep_identity.dir/unit/test_sweep_identity.c.o"
  "CMakeFiles/test_sweep_identity.dir/unit/test_sweep_identity.c.o.d"
  "test_sweep_identity"
  "test_sweep_identity.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sweep_identity.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
