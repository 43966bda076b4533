file(REMOVE_RECURSE
  "CMakeFiles/issm_shim.dir/sim/issm_shim.c.o"
  "CMakeFiles/issm_shim.dir/sim/issm_shim.c.o.d"
  "issm_shim.pdb"
  "issm_shim.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/issm_shim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
