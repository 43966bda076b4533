# Empty dependencies file for test_ak_mailbox.
# This may be replaced when dependencies are built.
