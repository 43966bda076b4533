# Empty dependencies file for rdmakit_dlmod.
# This may be replaced when dependencies are built.
