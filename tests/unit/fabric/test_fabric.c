/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of link classification and the node name map, on hand-built fabrics. */
#include "fixture_util.h"
#include "rdmakit/fabric.h"
#include "rdmakit/text.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/wait.h>
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

/* The stream of f, as rk_fabric_write writes it, into buf; its length. */
static size_t stream_of(const struct rk_fabric *f, unsigned char *buf, size_t size)
{
	int fds[2];
	ssize_t len;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(rk_fabric_write(fds[1], f), 0);
	close(fds[1]);
	len = read(fds[0], buf, size);
	close(fds[0]);
	assert_true(len > 0 && (size_t)len < size);
	return (size_t)len;
}

/* rk_fabric_read of buf[0..len) through a pipe. */
static int read_stream(const unsigned char *buf, size_t len, struct rk_fabric **out)
{
	int fds[2], err;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], buf, len), (ssize_t)len);
	close(fds[1]);
	*out = NULL;
	err = rk_fabric_read(fds[0], out);
	close(fds[0]);
	return err;
}

/* make_fabric(3, 1) with one link, and where its records start in its stream. */
struct stream_layout {
	size_t header, node[3], links, len;
};

static struct rk_fabric *layout_fabric(unsigned char *buf, size_t size, struct stream_layout *at)
{
	struct rk_fabric *f = make_fabric(3, 1);
	size_t node_bytes = sizeof(struct rk_fabric_node) + 9 * sizeof(struct rk_fabric_port);

	set_link(f, 0, 0, 1, 2, 1, 4, RK_SPEED_EDR);
	at->len = stream_of(f, buf, size);
	at->links = at->len - sizeof(struct rk_fabric_link);
	at->header = at->links - 3 * node_bytes;
	for (size_t i = 0; i < 3; i++)
		at->node[i] = at->header + i * node_bytes;
	return f;
}

static int read_patched(const unsigned char *orig, const struct stream_layout *at, size_t offset,
			const void *bytes, size_t count)
{
	unsigned char copy[65536];
	struct rk_fabric *back;
	int err;

	memcpy(copy, orig, at->len);
	memcpy(copy + offset, bytes, count);
	err = read_stream(copy, at->len, &back);
	if (err)
		assert_null(back);
	rk_fabric_free(back);
	return err;
}

/* Raw bytes from another process into bool fields: only 0 and 1 are bools (one link was
 * reported as "255 links support a faster speed"); enums out of range are refused too. */
static void stream_bools_and_enums_are_checked(void **state)
{
	static const unsigned char bad_bool = 255, two = 2;
	const size_t port1 = sizeof(struct rk_fabric_node) + sizeof(struct rk_fabric_port);
	const struct {
		size_t offset;
		const unsigned char *byte;
	} * c, cases[] = {
		   {offsetof(struct rk_fabric_node, is_sm), &bad_bool},
		   {offsetof(struct rk_fabric_node, pm_known), &two},
		   {port1 + offsetof(struct rk_fabric_port, present), &bad_bool},
	       };
	static const size_t link_bools[] = {offsetof(struct rk_fabric_link, ends_disagree),
					    offsetof(struct rk_fabric_link, below_enabled),
					    offsetof(struct rk_fabric_link, below_peers),
					    offsetof(struct rk_fabric_link, unused_supported)};
	const int bad_type = 9, bad_speed = RK_SPEED_COUNT;
	unsigned char buf[65536];
	struct stream_layout at;
	struct rk_fabric *f = layout_fabric(buf, sizeof(buf), &at);

	(void)state;
	assert_int_equal(read_patched(buf, &at, 0, "", 0), 0); /* unpatched: whole */
	for (c = cases; c < cases + sizeof(cases) / sizeof(cases[0]); c++)
		assert_int_equal(read_patched(buf, &at, at.node[1] + c->offset, c->byte, 1),
				 -EPROTO);
	for (size_t i = 0; i < sizeof(link_bools) / sizeof(link_bools[0]); i++)
		assert_int_equal(read_patched(buf, &at, at.links + link_bools[i], &bad_bool, 1),
				 -EPROTO);
	assert_int_equal(read_patched(buf, &at, at.node[2] + offsetof(struct rk_fabric_node, type),
				      &bad_type, sizeof(bad_type)),
			 -EPROTO);
	assert_int_equal(
	    read_patched(buf, &at,
			 at.node[0] + port1 + offsetof(struct rk_fabric_port, active_speed),
			 &bad_speed, sizeof(bad_speed)),
	    -EPROTO);
	assert_int_equal(read_patched(buf, &at, at.links + offsetof(struct rk_fabric_link, speed),
				      &bad_speed, sizeof(bad_speed)),
			 -EPROTO);
	rk_fabric_free(f);
}

/* Counts are bounded before anything is allocated: more nodes than a subnet has LIDs, more
 * links than the ports read can make, a non-finite discovery time. */
static void stream_counts_are_bounded(void **state)
{
	const uint64_t nodes_huge = 1ull << 40, links_more_than_ports = 14;
	const double nan_seconds = NAN;
	unsigned char buf[65536];
	struct stream_layout at;
	struct rk_fabric *f = layout_fabric(buf, sizeof(buf), &at);

	(void)state;
	/* the header: node count, link count, discovery seconds (fabric_helper.c) */
	assert_int_equal(read_patched(buf, &at, 0, &nodes_huge, 8), -EPROTO);
	assert_int_equal(read_patched(buf, &at, 8, &links_more_than_ports, 8), -EPROTO);
	assert_int_equal(read_patched(buf, &at, 16, &nan_seconds, 8), -EPROTO);
	rk_fabric_free(f);
}

/* A header claiming the most nodes a subnet can have, then three: the reader allocates as
 * records arrive, so it asks for far less than 65,536 nodes' worth (13 MB) before the stream
 * ends. Run in a child whose address space is limited to what it has plus 8 MB. */
static void stream_is_read_incrementally(void **state)
{
	const uint64_t most_nodes = 65536;
	unsigned char buf[65536];
	struct stream_layout at;
	struct rk_fabric *f = layout_fabric(buf, sizeof(buf), &at);
	int status;
	pid_t pid;

	(void)state;
	if (RUNNING_UNDER_ASAN) {
		print_message("skipped: an address-space limit cannot hold ASan's shadow memory\n");
		rk_fabric_free(f);
		return;
	}
	memcpy(buf, &most_nodes, 8);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rk_fabric *back;

		limit_address_space(8 << 20);
		_exit(read_stream(buf, at.len, &back) == -ENODATA ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	rk_fabric_free(f);
}

/* An empty map has no entries to sort or search (qsort and bsearch through NULL are undefined
 * behaviour: the sanitized build stops on them). */
static void empty_name_map_loads_and_finds_nothing(void **state)
{
	char dir[] = "/tmp/rdmakit-names-XXXXXX";
	char path[64];
	struct rk_name_map *map;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "empty", "");
	snprintf(path, sizeof(path), "%s/empty", dir);
	assert_int_equal(rk_name_map_load(path, &map), 0);
	assert_null(rk_name_map_lookup(map, 0x0002c90200100001ull));
	rk_name_map_free(map);
	write_file(dir, "comments", "# only a comment\n\n");
	snprintf(path, sizeof(path), "%s/comments", dir);
	assert_int_equal(rk_name_map_load(path, &map), 0);
	assert_null(rk_name_map_lookup(map, 1));
	rk_name_map_free(map);
	remove_tree(dir);
}

/* A FIFO as the map used to hang fopen for a writer; a directory is refused with a reason. */
static void name_map_that_is_not_a_file(void **state)
{
	char dir[] = "/tmp/rdmakit-names-XXXXXX";
	char path[64];
	struct rk_name_map *map = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	log_capture_start();
	assert_int_equal(replace_with(dir, "fifo", HOSTILE_FIFO), 0);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	alarm(10);
	assert_int_equal(rk_name_map_load(path, &map), -ESPIPE);
	alarm(0);
	assert_int_equal(log_capture_count("fifo: cannot open node name map: not a regular file"),
			 1);
	snprintf(path, sizeof(path), "%s", dir);
	assert_int_equal(rk_name_map_load(path, &map), -EISDIR);
	assert_int_equal(log_capture_count("cannot open node name map: a directory"), 1);
	assert_null(map);
	remove_tree(dir);
}

/* Control bytes, a backslash and bytes that are not 7-bit come out escaped, never raw. */
static void hostile_text_is_escaped(void **state)
{
	char out[RK_TEXT_CLEAN_MAX];
	char small[8];

	(void)state;
	assert_int_equal(rk_text_clean("a\x1b[2Jb", SIZE_MAX, out, sizeof(out)), 9);
	assert_string_equal(out, "a\\x1b[2Jb");
	rk_text_clean("bell\a cr\r \xff\xc3\xa9 \\ \"q\" %n", SIZE_MAX, out, sizeof(out));
	assert_string_equal(out, "bell\\x07 cr\\x0d \\xff\\xc3\\xa9 \\ \"q\" %n");
	/* an escape that does not fit is left out whole */
	assert_int_equal(rk_text_clean("abcd\x01", SIZE_MAX, small, sizeof(small)), 4);
	assert_string_equal(small, "abcd");
	/* a NodeDescription fills its 64 octets without a terminator */
	memset(out, 'x', 70);
	assert_int_equal(rk_text_clean(out, 64, out + 100, sizeof(out) - 100), 64);
}

/* Names shared or empty get the GUID; a unique one and a mapped one stay as they are. */
static void shared_and_empty_names_get_the_guid(void **state)
{
	struct rk_fabric *f = make_fabric(5, 0);
	struct rk_name_map *map;
	char path[] = "/tmp/rk_names_XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_true(write(fd, "0x1004 \"spine\"\n", 15) == 15);
	close(fd);
	assert_int_equal(rk_name_map_load(path, &map), 0);
	unlink(path);
	snprintf(f->nodes[0].description, sizeof(f->nodes[0].description), "SwitchIB Mellanox");
	snprintf(f->nodes[1].description, sizeof(f->nodes[1].description), "SwitchIB Mellanox");
	snprintf(f->nodes[2].description, sizeof(f->nodes[2].description), "h1\x1b]0;x\a");
	f->nodes[3].description[0] = '\0';
	snprintf(f->nodes[4].description, sizeof(f->nodes[4].description), "SwitchIB Mellanox");
	rk_fabric_name_nodes(f, map);
	assert_string_equal(f->nodes[0].name, "SwitchIB Mellanox (0x0000000000001000)");
	assert_string_equal(f->nodes[1].name, "SwitchIB Mellanox (0x0000000000001001)");
	assert_string_equal(f->nodes[2].name, "h1\\x1b]0;x\\x07");
	assert_string_equal(f->nodes[3].name, "0x0000000000001003");
	assert_string_equal(f->nodes[4].name, "spine");
	rk_name_map_free(map);
	for (size_t i = 0; i < f->nnodes; i++)
		free(f->nodes[i].ports);
	free(f->nodes);
	free(f->links);
	free(f);
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
	    cmocka_unit_test(stream_bools_and_enums_are_checked),
	    cmocka_unit_test(stream_counts_are_bounded),
	    cmocka_unit_test(stream_is_read_incrementally),
	    cmocka_unit_test(empty_name_map_loads_and_finds_nothing),
	    cmocka_unit_test(name_map_that_is_not_a_file),
	    cmocka_unit_test(hostile_text_is_escaped),
	    cmocka_unit_test(shared_and_empty_names_get_the_guid),
	};

	return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
