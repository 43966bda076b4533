/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of what the RDMA stack shows in sysfs and /dev (rk_rdma_stack), on trees built
 * step by step from an empty host to one with umad and verbs devices. */
#include "fixture_util.h"
#include "rdmakit/rdma_stack.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

/* A host tree: sys/ and dev/ under a temporary directory. */
struct tree {
	char root[64], sys[96], dev[96];
};

static void make_dir(const struct tree *tree, const char *relpath)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tree->root, relpath);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int tree_setup(void **state)
{
	struct tree *tree = calloc(1, sizeof(*tree));

	snprintf(tree->root, sizeof(tree->root), "/tmp/rdmakit-stack.XXXXXX");
	if (!mkdtemp(tree->root))
		return -1;
	snprintf(tree->sys, sizeof(tree->sys), "%s/sys", tree->root);
	snprintf(tree->dev, sizeof(tree->dev), "%s/dev", tree->root);
	make_dir(tree, "sys");
	make_dir(tree, "sys/class");
	make_dir(tree, "dev");
	*state = tree;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *tree = *state;

	remove_tree(tree->root);
	free(tree);
	return 0;
}

static struct rk_rdma_stack read_stack(const struct tree *tree)
{
	struct rk_rdma_stack stack;

	memset(&stack, 0xff, sizeof(stack));
	rk_rdma_stack_read(tree->sys, tree->dev, &stack);
	return stack;
}

static void empty_host_has_no_device(void **state)
{
	struct rk_rdma_stack stack = read_stack(*state);

	assert_int_equal(stack.devices, 0);
	assert_false(stack.umad_loaded);
	assert_int_equal(stack.umad_ports, 0);
	assert_false(stack.uverbs_loaded);
	assert_int_equal(stack.uverbs_nodes, 0);
	assert_string_equal(rk_rdma_stack_no_umad(&stack),
			    "no RDMA device on this host (nothing under /sys/class/infiniband): "
			    "MADs need an InfiniBand HCA and its driver (mlx5_ib, ...)");
	assert_non_null(strstr(rk_rdma_stack_no_verbs(&stack), "no RDMA device on this host"));
	assert_non_null(strstr(rk_rdma_stack_no_verbs(&stack), "rdma link add rxe0 type rxe"));
}

static void device_without_modules(void **state)
{
	struct tree *tree = *state;
	struct rk_rdma_stack stack;

	make_dir(tree, "sys/class/infiniband");
	make_dir(tree, "sys/class/infiniband/mlx5_0");
	make_dir(tree, "sys/class/infiniband/mlx5_1");
	stack = read_stack(tree);
	assert_int_equal(stack.devices, 2);
	assert_string_equal(
	    rk_rdma_stack_no_umad(&stack),
	    "ib_umad is not loaded (no /sys/class/infiniband_mad): modprobe ib_umad");
	assert_string_equal(
	    rk_rdma_stack_no_verbs(&stack),
	    "ib_uverbs is not loaded (no /sys/class/infiniband_verbs): modprobe ib_uverbs");
}

static void umad_loaded_without_an_infiniband_port(void **state)
{
	struct tree *tree = *state;
	struct rk_rdma_stack stack;

	make_dir(tree, "sys/class/infiniband");
	make_dir(tree, "sys/class/infiniband/rxe0");
	make_dir(tree, "sys/class/infiniband_mad");
	write_file(tree->root, "sys/class/infiniband_mad/abi_version", "5\n");
	stack = read_stack(tree);
	assert_true(stack.umad_loaded);
	assert_int_equal(stack.umad_ports, 0);
	assert_non_null(strstr(rk_rdma_stack_no_umad(&stack), "no InfiniBand port has a umad"));
	make_dir(tree, "sys/class/infiniband_mad/umad0");
	make_dir(tree, "sys/class/infiniband_mad/umad1");
	stack = read_stack(tree);
	assert_int_equal(stack.umad_ports, 2);
	assert_null(rk_rdma_stack_no_umad(&stack));
}

static void verbs_device_without_its_node(void **state)
{
	struct tree *tree = *state;
	struct rk_rdma_stack stack;

	make_dir(tree, "sys/class/infiniband");
	make_dir(tree, "sys/class/infiniband/mlx5_0");
	make_dir(tree, "sys/class/infiniband_verbs");
	write_file(tree->root, "sys/class/infiniband_verbs/abi_version", "6\n");
	make_dir(tree, "sys/class/infiniband_verbs/uverbs0");
	stack = read_stack(tree);
	assert_true(stack.uverbs_loaded);
	assert_int_equal(stack.uverbs_devices, 1);
	assert_non_null(strstr(rk_rdma_stack_no_verbs(&stack), "no /dev/infiniband/uverbs*"));
	make_dir(tree, "dev/infiniband");
	write_file(tree->root, "dev/infiniband/uverbs0", "");
	stack = read_stack(tree);
	assert_int_equal(stack.uverbs_nodes, 1);
	assert_null(rk_rdma_stack_no_verbs(&stack));
}

static void the_simulator_shim_is_recognised(void **state)
{
	(void)state;
	assert_int_equal(unsetenv("LD_PRELOAD"), 0);
	assert_false(rk_rdma_stack_simulated());
	assert_int_equal(setenv("LD_PRELOAD", "/usr/lib/libfoo.so", 1), 0);
	assert_false(rk_rdma_stack_simulated());
	assert_int_equal(setenv("LD_PRELOAD",
				"/lib/libfoo.so:/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
				1),
			 0);
	assert_true(rk_rdma_stack_simulated());
	assert_int_equal(unsetenv("LD_PRELOAD"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(empty_host_has_no_device, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(device_without_modules, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(umad_loaded_without_an_infiniband_port, tree_setup,
					    tree_teardown),
	    cmocka_unit_test_setup_teardown(verbs_device_without_its_node, tree_setup,
					    tree_teardown),
	    cmocka_unit_test(the_simulator_shim_is_recognised),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
