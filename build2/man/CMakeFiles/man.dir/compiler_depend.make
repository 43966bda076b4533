# Empty custom commands generated dependencies file for man.
# This may be replaced when dependencies are built.
