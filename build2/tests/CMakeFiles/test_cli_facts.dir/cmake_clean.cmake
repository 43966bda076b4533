file(REMOVE_RECURSE
  "CMakeFiles/test_cli_facts.dir/__/cli/fabric_out.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/fabric_out.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/facts_out.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/facts_out.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/host_out.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/host_out.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/json_stream.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/json_stream.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/port_filter.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/port_filter.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/print.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/print.c.o.d"
  "CMakeFiles/test_cli_facts.dir/__/cli/verbs_out.c.o"
  "CMakeFiles/test_cli_facts.dir/__/cli/verbs_out.c.o.d"
  "CMakeFiles/test_cli_facts.dir/unit/test_cli_facts.c.o"
  "CMakeFiles/test_cli_facts.dir/unit/test_cli_facts.c.o.d"
  "test_cli_facts"
  "test_cli_facts.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cli_facts.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
