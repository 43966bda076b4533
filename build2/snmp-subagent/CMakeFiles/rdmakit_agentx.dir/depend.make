# Empty dependencies file for rdmakit_agentx.
# This may be replaced when dependencies are built.
