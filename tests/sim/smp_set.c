/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* smp_set LID ATTR MOD OFFSET=BYTE|OFFSET^=BITS...: change bytes of one SMP attribute of the
 * port at LID through librdmakit's MAD engine (SubnGet it, set a byte or flip bits of it,
 * SubnSet it back), as a test breaks a P_Key table (0x16), an SL-to-VL map (0x17) or a
 * multicast forwarding table (0x1b) the SM then does not repair. Numbers in C notation (0x..
 * for hex). */
#include "rdmakit/mad.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_one(struct rk_mad_port *port, struct rk_mad_request *r)
{
	int err = rk_mad_run(port, r, 1, NULL, NULL, NULL, NULL);

	if (!err && r->status)
		err = r->status;
	if (err)
		fprintf(stderr, "smp_set: %s of attribute 0x%x at LID %u: %s\n",
			r->method == RK_MAD_METHOD_SET ? "SubnSet" : "SubnGet", r->attr_id, r->lid,
			strerror(-err));
	return err;
}

static int number(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(text, &end, 0);
	return end != text && !errno && *out <= max ? 0 : -EINVAL;
}

/* OFFSET=BYTE (set it) or OFFSET^=BITS (flip them) into the request's data. */
static int patch(struct rk_mad_request *r, const char *arg)
{
	const char *eq = strchr(arg, '=');
	bool flip = eq && eq > arg && eq[-1] == '^';
	size_t head_len = eq ? (size_t)(eq - arg) - flip : 0;
	unsigned long offset, value;
	char head[32];

	if (!eq || head_len >= sizeof(head))
		return -EINVAL;
	memcpy(head, arg, head_len);
	head[head_len] = '\0';
	if (number(head, RK_MAD_SMP_DATA_SIZE - 1, &offset) || number(eq + 1, 255, &value))
		return -EINVAL;
	r->data[offset] = (uint8_t)(flip ? r->data[offset] ^ value : value);
	return 0;
}

int main(int argc, char **argv)
{
	struct rk_mad_request r = {.route = RK_MAD_LID, .mgmt_class = RK_MAD_CLASS_SMP};
	unsigned long lid, attr, mod;
	struct rk_mad_port *port;
	int err;

	if (argc < 5 || number(argv[1], 0xbfff, &lid) || number(argv[2], 0xffff, &attr) ||
	    number(argv[3], 0xffffffffUL, &mod)) {
		fprintf(stderr, "usage: smp_set LID ATTR MOD OFFSET=BYTE|OFFSET^=BITS...\n");
		return 2;
	}
	r.lid = (uint16_t)lid;
	r.attr_id = (uint16_t)attr;
	r.attr_mod = (uint32_t)mod;
	r.method = RK_MAD_METHOD_GET;
	if (rk_mad_port_open(NULL, 0, &port) != 0)
		return 1;
	err = run_one(port, &r);
	if (!err)
		memcpy(r.data, rk_mad_reply_data(&r), RK_MAD_SMP_DATA_SIZE);
	for (int i = 4; i < argc && !err; i++)
		if (patch(&r, argv[i]) != 0) {
			fprintf(stderr, "smp_set: \"%s\" is not OFFSET=BYTE or OFFSET^=BITS\n",
				argv[i]);
			err = -EINVAL;
		}
	r.method = RK_MAD_METHOD_SET;
	if (!err)
		err = run_one(port, &r);
	rk_mad_port_close(port);
	if (!err)
		printf("attribute 0x%lx of LID %lu set\n", attr, lid);
	return err ? 1 : 0;
}
