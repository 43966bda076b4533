/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The commands' one fabric session: what a sample reads, and when. */
#include "fabric_session.h"

int cli_with_fabric(const struct cli_fabric_run *run)
{
	struct rk_fabric_cache_options options;
	struct cli_fabric fabric = {0};
	struct rk_name_map *names;
	int status;

	if (!cli_load_name_map(run->mad, &names))
		return EXIT_TROUBLE;
	cli_monitor_options(run->mad, names, run->watching, &options);
	if (run->set_options)
		run->set_options(&options, run->ctx);
	rk_fabric_cache_init(&fabric.monitor, &options);
	fabric.names = names;
	status = run->run(&fabric, run->ctx);
	rk_fabric_cache_close(&fabric.monitor);
	rk_name_map_free(names);
	return status;
}

int cli_fabric_sample(struct cli_fabric *fabric, unsigned what)
{
	int err = 0;

	if (what & CLI_SAMPLE_DISCOVER)
		err = rk_fabric_cache_discover(&fabric->monitor);
	if (!err && (what & CLI_SAMPLE_SWEEP))
		err =
		    rk_fabric_cache_sweep(&fabric->monitor, fabric->progress, fabric->progress_ctx);
	if (!err && (what & CLI_SAMPLE_SM))
		err = rk_fabric_cache_query_sm(&fabric->monitor);
	return err;
}

int cli_fabric_sample_after(struct cli_fabric *fabric, double interval, unsigned what)
{
	cli_sleep(interval);
	return cli_fabric_sample(fabric, what);
}
