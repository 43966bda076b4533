file(REMOVE_RECURSE
  "CMakeFiles/fault_shim.dir/fakes/fault_shim.c.o"
  "CMakeFiles/fault_shim.dir/fakes/fault_shim.c.o.d"
  "fault_shim.pdb"
  "fault_shim.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fault_shim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
