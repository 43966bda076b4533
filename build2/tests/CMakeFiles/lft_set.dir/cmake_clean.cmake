file(REMOVE_RECURSE
  "CMakeFiles/lft_set.dir/sim/lft_set.c.o"
  "CMakeFiles/lft_set.dir/sim/lft_set.c.o.d"
  "lft_set"
  "lft_set.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lft_set.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
