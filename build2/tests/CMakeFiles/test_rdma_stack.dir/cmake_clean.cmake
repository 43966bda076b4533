file(REMOVE_RECURSE
  "CMakeFiles/test_rdma_stack.dir/unit/test_rdma_stack.c.o"
  "CMakeFiles/test_rdma_stack.dir/unit/test_rdma_stack.c.o.d"
  "test_rdma_stack"
  "test_rdma_stack.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_rdma_stack.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
