/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of link classification and the node name map, on hand-built fabrics. */
#include "fixture_util.h"
#include "rdmakit/fabric.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#define SPEEDS(a, b) ((1u << (a)) | (1u << (b)))
#define WIDTHS_1_4   ((1u << 1) | (1u << 4))

/* Two switch models and hosts; link i joins node a port p to node b port q. */
static struct rk_fabric *make_fabric(size_t nnodes, size_t nlinks)
{
	struct rk_fabric *f = calloc(1, sizeof(*f));

	f->nodes = calloc(nnodes, sizeof(*f->nodes));
	f->nnodes = nnodes;
	f->links = calloc(nlinks, sizeof(*f->links));
	f->nlinks = nlinks;
	for (size_t i = 0; i < nnodes; i++) {
		f->nodes[i].guid = 0x1000 + i;
		f->nodes[i].nports = 8;
		f->nodes[i].ports = calloc(9, sizeof(struct rk_fabric_port));
		f->nodes[i].type = i < 2 ? RK_NODE_SWITCH : RK_NODE_CA;
		f->nodes[i].device_id = i < 2 ? 0xcf08 : 0x101b;
		for (int p = 0; p <= 8; p++) {
			struct rk_fabric_port *port = &f->nodes[i].ports[p];

			port->present = true;
			port->enabled_speeds = SPEEDS(RK_SPEED_FDR, RK_SPEED_EDR);
			port->supported_speeds = port->enabled_speeds;
			port->enabled_widths = port->supported_widths = WIDTHS_1_4;
		}
	}
	return f;
}

static void set_link(struct rk_fabric *f, size_t i, int a, int pa, int b, int pb, int width,
		     enum rk_speed speed)
{
	f->links[i] = (struct rk_fabric_link){
	    .node_a = a, .port_a = pa, .node_b = b, .port_b = pb, .width = width, .speed = speed};
}

static void majority_and_capability(void **state)
{
	struct rk_fabric *f = make_fabric(6, 5);

	(void)state;
	/* switch 0 to hosts 2..5 at 4X EDR, one host at 4X QDR; a switch-switch link at 1X EDR */
	set_link(f, 0, 0, 1, 2, 1, 4, RK_SPEED_EDR);
	set_link(f, 1, 0, 2, 3, 1, 4, RK_SPEED_EDR);
	set_link(f, 2, 0, 3, 4, 1, 4, RK_SPEED_EDR);
	set_link(f, 3, 0, 4, 5, 1, 4, RK_SPEED_QDR);
	set_link(f, 4, 0, 5, 1, 5, 1, RK_SPEED_EDR);
	rk_fabric_classify_links(f);
	for (int i = 0; i < 3; i++) {
		assert_false(f->links[i].below_peers);
		assert_false(f->links[i].below_enabled);
	}
	assert_true(f->links[3].below_peers);
	assert_true(f->links[3].below_enabled); /* both ends enable EDR */
	/* alone in its group: no peers to compare, but narrower than both ends enable */
	assert_false(f->links[4].below_peers);
	assert_true(f->links[4].below_enabled);
	rk_fabric_free(f);
}

static void no_majority_no_peer_flag(void **state)
{
	struct rk_fabric *f = make_fabric(6, 4);

	(void)state;
	set_link(f, 0, 0, 1, 2, 1, 4, RK_SPEED_EDR);
	set_link(f, 1, 0, 2, 3, 1, 4, RK_SPEED_EDR);
	set_link(f, 2, 0, 3, 4, 1, 4, RK_SPEED_FDR);
	set_link(f, 3, 0, 4, 5, 1, 4, RK_SPEED_FDR);
	rk_fabric_classify_links(f);
	for (int i = 0; i < 4; i++)
		assert_false(f->links[i].below_peers);
	assert_true(f->links[2].below_enabled);
	rk_fabric_free(f);
}

static void supported_but_not_enabled_is_only_a_note(void **state)
{
	struct rk_fabric *f = make_fabric(3, 1);

	(void)state;
	f->nodes[0].ports[1].supported_speeds |= 1u << RK_SPEED_HDR;
	f->nodes[2].ports[1].supported_speeds |= 1u << RK_SPEED_HDR;
	set_link(f, 0, 0, 1, 2, 1, 4, RK_SPEED_EDR);
	rk_fabric_classify_links(f);
	assert_true(f->links[0].unused_supported);
	assert_false(f->links[0].below_enabled);
	assert_false(f->links[0].below_peers);
	rk_fabric_free(f);
}

static void speed_names_and_rates(void **state)
{
	(void)state;
	assert_string_equal(rk_speed_name(RK_SPEED_EDR), "EDR");
	assert_string_equal(rk_speed_name(RK_SPEED_FDR10), "FDR10");
	assert_true(rk_speed_lane_gbps(RK_SPEED_HDR) == 53.125);
	assert_string_equal(rk_node_type_name(RK_NODE_SWITCH), "switch");
}

static void name_map_parses_and_reports_bad_lines(void **state)
{
	char *dir = fixture_copy("ib-hdr");
	char path[4096];
	struct rk_name_map *map;

	(void)state;
	log_capture_start();
	write_file(dir, "names",
		   "# comment\n\n0x0002c90200100001 \"leaf one\"\n"
		   "  0x0002C90300000010 compute-001  \n"
		   "0x12 \"unterminated\n"
		   "12345 \"no hex prefix\"\n"
		   "0xzz \"bad guid\"\n");
	snprintf(path, sizeof(path), "%s/names", dir);
	assert_int_equal(rk_name_map_load(path, &map), 0);
	assert_string_equal(rk_name_map_lookup(map, 0x0002c90200100001ull), "leaf one");
	assert_string_equal(rk_name_map_lookup(map, 0x0002c90300000010ull), "compute-001");
	assert_null(rk_name_map_lookup(map, 0x12));
	assert_null(rk_name_map_lookup(map, 12345));
	assert_int_equal(log_capture_count("names:5: expected 0xGUID"), 1);
	assert_int_equal(log_capture_count("names:6: expected 0xGUID"), 1);
	assert_int_equal(log_capture_count("names:7: expected 0xGUID"), 1);
	rk_name_map_free(map);
	assert_int_equal(rk_name_map_load("/nonexistent/names", &map), -ENOENT);
	fixture_discard(dir);
}

/* Write f into a pipe (small enough for its buffer), then cut it to keep bytes; the read end.
 * The whole stream's length goes to *whole when whole is not NULL. */
static int pipe_with(const struct rk_fabric *f, size_t keep, size_t *whole)
{
	int fds[2], copy[2];
	char buf[65536];
	ssize_t len;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(rk_fabric_write(fds[1], f), 0);
	close(fds[1]);
	len = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	if (whole)
		*whole = (size_t)len;
	assert_int_equal(pipe(copy), 0);
	assert_int_equal(write(copy[1], buf, keep < (size_t)len ? keep : (size_t)len),
			 (ssize_t)(keep < (size_t)len ? keep : (size_t)len));
	close(copy[1]);
	return copy[0];
}

static void fabric_written_and_read_back_whole(void **state)
{
	struct rk_fabric *f = make_fabric(4, 3), *back = NULL;
	int fd;

	(void)state;
	set_link(f, 0, 0, 1, 2, 1, 4, RK_SPEED_EDR);
	set_link(f, 1, 0, 2, 3, 1, 4, RK_SPEED_QDR);
	set_link(f, 2, 0, 3, 1, 3, 1, RK_SPEED_EDR);
	rk_fabric_classify_links(f);
	snprintf(f->nodes[2].description, sizeof(f->nodes[2].description), "host2 HCA-1");
	f->nodes[2].ports[1].lid = 17;
	f->local_node = 2;
	f->discovery_seconds = 0.25;
	fd = pipe_with(f, SIZE_MAX, NULL);
	assert_int_equal(rk_fabric_read(fd, &back), 0);
	close(fd);
	assert_int_equal(back->nnodes, 4);
	assert_int_equal(back->nlinks, 3);
	assert_int_equal(back->local_node, 2);
	assert_true(back->discovery_seconds == 0.25);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(back->nodes[i].guid, f->nodes[i].guid);
		assert_int_equal(back->nodes[i].device_id, f->nodes[i].device_id);
		assert_memory_equal(back->nodes[i].ports, f->nodes[i].ports,
				    9 * sizeof(struct rk_fabric_port));
	}
	assert_string_equal(back->nodes[2].description, "host2 HCA-1");
	assert_memory_equal(back->links, f->links, 3 * sizeof(struct rk_fabric_link));
	assert_true(back->links[1].below_enabled);
	rk_fabric_free(back);
	rk_fabric_free(f);
}

static void cut_or_bad_fabric_streams_are_refused(void **state)
{
	struct rk_fabric *f = make_fabric(3, 1), *back = NULL;
	size_t whole = 0;
	int fd = pipe_with(f, SIZE_MAX, &whole);
	size_t cuts[] = {0, 10, 200, whole / 2, whole - 1};

	(void)state;
	close(fd);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		fd = pipe_with(f, cuts[i], NULL);
		assert_int_equal(rk_fabric_read(fd, &back), -ENODATA);
		assert_null(back);
		close(fd);
	}
	f->links[0].node_b = 99; /* a link to a node that is not there */
	fd = pipe_with(f, SIZE_MAX, NULL);
	assert_int_equal(rk_fabric_read(fd, &back), -EPROTO);
	assert_null(back);
	close(fd);
	f->links[0].node_b = 1;
	f->nodes[1].ports[3].remote_node = 2;
	f->nodes[1].ports[3].remote_port = 9; /* node 2 has ports 0..8 */
	fd = pipe_with(f, SIZE_MAX, NULL);
	assert_int_equal(rk_fabric_read(fd, &back), -EPROTO);
	assert_null(back);
	close(fd);
	free(f->nodes[0].ports); /* more ports than a node can have (254 at most) */
	f->nodes[0].ports = calloc(301, sizeof(struct rk_fabric_port));
	f->nodes[0].nports = 300;
	fd = pipe_with(f, SIZE_MAX, NULL);
	assert_int_equal(rk_fabric_read(fd, &back), -EPROTO);
	assert_null(back);
	close(fd);
	rk_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(majority_and_capability),
	    cmocka_unit_test(fabric_written_and_read_back_whole),
	    cmocka_unit_test(cut_or_bad_fabric_streams_are_refused),
	    cmocka_unit_test(no_majority_no_peer_flag),
	    cmocka_unit_test(supported_but_not_enabled_is_only_a_note),
	    cmocka_unit_test(speed_names_and_rates),
	    cmocka_unit_test(name_map_parses_and_reports_bad_lines),
	};

	return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
