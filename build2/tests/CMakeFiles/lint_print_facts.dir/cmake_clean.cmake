file(REMOVE_RECURSE
  "CMakeFiles/lint_print_facts.dir/lint/print_facts.c.o"
  "CMakeFiles/lint_print_facts.dir/lint/print_facts.c.o.d"
  "lint_print_facts"
  "lint_print_facts.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lint_print_facts.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
