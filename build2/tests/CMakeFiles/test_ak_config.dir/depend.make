# Empty dependencies file for test_ak_config.
# This may be replaced when dependencies are built.
