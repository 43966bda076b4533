# Empty dependencies file for test_sweep_identity.
# This may be replaced when dependencies are built.
