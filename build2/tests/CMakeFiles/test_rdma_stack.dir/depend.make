# Empty dependencies file for test_rdma_stack.
# This may be replaced when dependencies are built.
