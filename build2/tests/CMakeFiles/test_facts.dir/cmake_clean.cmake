file(REMOVE_RECURSE
  "CMakeFiles/test_facts.dir/unit/test_facts.c.o"
  "CMakeFiles/test_facts.dir/unit/test_facts.c.o.d"
  "test_facts"
  "test_facts.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_facts.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
