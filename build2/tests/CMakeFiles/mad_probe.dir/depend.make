# Empty dependencies file for mad_probe.
# This may be replaced when dependencies are built.
