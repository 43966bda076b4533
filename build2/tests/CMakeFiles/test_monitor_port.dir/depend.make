# Empty dependencies file for test_monitor_port.
# This may be replaced when dependencies are built.
