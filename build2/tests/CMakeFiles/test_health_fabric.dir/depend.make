# Empty dependencies file for test_health_fabric.
# This may be replaced when dependencies are built.
