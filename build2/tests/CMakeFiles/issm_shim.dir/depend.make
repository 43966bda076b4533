# Empty dependencies file for issm_shim.
# This may be replaced when dependencies are built.
