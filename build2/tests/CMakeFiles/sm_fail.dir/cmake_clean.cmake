file(REMOVE_RECURSE
  "CMakeFiles/sm_fail.dir/sim/sm_fail.c.o"
  "CMakeFiles/sm_fail.dir/sim/sm_fail.c.o.d"
  "sm_fail"
  "sm_fail.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sm_fail.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
