# Empty dependencies file for test_cd_ports.
# This may be replaced when dependencies are built.
