# Empty dependencies file for test_probe_ports.
# This may be replaced when dependencies are built.
