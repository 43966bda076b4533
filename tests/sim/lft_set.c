/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* lft_set SWITCH_LID LID=PORT... | top=N: change entries of one switch's LinearForwardingTable
 * through librdmakit's MAD engine (SubnGet the block, change it, SubnSet it back), as a
 * test writes a hole (PORT 255) or a loop into a table the SM then does not repair; or its
 * SwitchInfo's LinearFDBTop. */
#include "rdmakit/mad.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SET 64

struct entry {
	unsigned lid, port;
};

static int run_one(struct rk_mad_port *port, struct rk_mad_request *r)
{
	int err = rk_mad_run(port, r, 1, NULL, NULL, NULL, NULL);

	if (!err && r->status)
		err = r->status;
	if (err)
		fprintf(stderr, "lft_set: %s of block %u at LID %u: %s\n",
			r->method == RK_MAD_METHOD_SET ? "SubnSet" : "SubnGet", r->attr_mod, r->lid,
			strerror(-err));
	return err;
}

/* Get the block of entry e, change every entry of that block, set it. */
static int set_block(struct rk_mad_port *port, unsigned lid, const struct entry *entries,
		     size_t count, unsigned block)
{
	struct rk_mad_request r = {.route = RK_MAD_LID,
				   .mgmt_class = RK_MAD_CLASS_SMP,
				   .lid = (uint16_t)lid,
				   .method = RK_MAD_METHOD_GET,
				   .attr_id = RK_SMP_ATTR_LFT,
				   .attr_mod = block};
	int err = run_one(port, &r);

	if (err)
		return err;
	memcpy(r.data, rk_mad_reply_data(&r), RK_MAD_SMP_DATA_SIZE);
	for (size_t i = 0; i < count; i++)
		if (entries[i].lid / 64 == block)
			r.data[entries[i].lid % 64] = (uint8_t)entries[i].port;
	r.method = RK_MAD_METHOD_SET;
	err = run_one(port, &r);
	if (!err)
		printf("block %u of LID %u set\n", block, lid);
	return err;
}

/* SubnGet SwitchInfo, change LinearFDBTop (bytes 6-7), SubnSet it back. */
static int set_top(struct rk_mad_port *port, unsigned lid, unsigned top)
{
	struct rk_mad_request r = {.route = RK_MAD_LID,
				   .mgmt_class = RK_MAD_CLASS_SMP,
				   .lid = (uint16_t)lid,
				   .method = RK_MAD_METHOD_GET,
				   .attr_id = RK_SMP_ATTR_SWITCH_INFO};
	int err = run_one(port, &r);

	if (err)
		return err;
	memcpy(r.data, rk_mad_reply_data(&r), RK_MAD_SMP_DATA_SIZE);
	r.data[6] = (uint8_t)(top >> 8);
	r.data[7] = (uint8_t)top;
	r.method = RK_MAD_METHOD_SET;
	err = run_one(port, &r);
	if (!err)
		printf("LinearFDBTop of LID %u set to %u\n", lid, top);
	return err;
}

static bool parse(int argc, char **argv, unsigned *lid, struct entry *entries, size_t *count)
{
	char *end;

	if (argc < 3 || argc - 2 > MAX_SET)
		return false;
	*lid = (unsigned)strtoul(argv[1], &end, 0);
	if (*end || *lid == 0 || *lid >= 0xc000)
		return false;
	for (int i = 2; i < argc; i++) {
		struct entry *e = &entries[(*count)++];

		if (sscanf(argv[i], "%u=%u", &e->lid, &e->port) != 2 || e->lid >= 0xc000 ||
		    e->port > 255)
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct entry entries[MAX_SET];
	struct rk_mad_port *port;
	size_t count = 0;
	long top = -1;
	unsigned lid;
	int err;

	if (argc == 3 && sscanf(argv[2], "top=%ld", &top) == 1 && top >= 0 && top <= 0xffff)
		argv[2] = "0=0"; /* parsed, then not set */
	if (!parse(argc, argv, &lid, entries, &count)) {
		fprintf(stderr, "usage: lft_set SWITCH_LID LID=PORT... | top=N\n");
		return 2;
	}
	err = rk_mad_port_open(NULL, 0, &port);
	if (err) {
		fprintf(stderr, "lft_set: cannot open the umad port: %s\n", strerror(-err));
		return 1;
	}
	if (top >= 0) {
		err = set_top(port, lid, (unsigned)top);
		count = 0;
	}
	for (size_t i = 0; i < count && !err; i++) {
		bool done = false;

		for (size_t j = 0; j < i; j++)
			done |= entries[j].lid / 64 == entries[i].lid / 64;
		if (!done)
			err = set_block(port, lid, entries, count, entries[i].lid / 64);
	}
	rk_mad_port_close(port);
	return err ? 1 : 0;
}
