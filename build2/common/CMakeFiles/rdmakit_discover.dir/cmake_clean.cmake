file(REMOVE_RECURSE
  "CMakeFiles/rdmakit_discover.dir/helper/discover.c.o"
  "CMakeFiles/rdmakit_discover.dir/helper/discover.c.o.d"
  "rdmakit-discover"
  "rdmakit-discover.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/rdmakit_discover.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
