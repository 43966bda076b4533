# Empty dependencies file for test_cd_fabric.
# This may be replaced when dependencies are built.
