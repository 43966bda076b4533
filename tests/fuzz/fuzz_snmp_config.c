/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: rdmakit-agentx's config file (ak_config_read), from a file with the
 * input's bytes; its error messages go to /dev/null. */
#include "ak_config.h"

#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *errors;
	char path[96];
	struct ak_config config;

	fuzz_quiet_log();
	if (!errors && !(errors = fopen("/dev/null", "w")))
		abort();
	snprintf(path, sizeof(path), "%s/agentx.conf", fuzz_scratch_dir());
	if (fuzz_write_file(path, data, size) != 0)
		abort();
	ak_config_defaults(&config);
	ak_config_read(path, false, &config, errors);
	ak_config_free(&config);
	return 0;
}
