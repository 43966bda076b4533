file(REMOVE_RECURSE
  "CMakeFiles/test_cli_print.dir/__/cli/json_stream.c.o"
  "CMakeFiles/test_cli_print.dir/__/cli/json_stream.c.o.d"
  "CMakeFiles/test_cli_print.dir/__/cli/print.c.o"
  "CMakeFiles/test_cli_print.dir/__/cli/print.c.o.d"
  "CMakeFiles/test_cli_print.dir/unit/test_cli_print.c.o"
  "CMakeFiles/test_cli_print.dir/unit/test_cli_print.c.o.d"
  "test_cli_print"
  "test_cli_print.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cli_print.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
