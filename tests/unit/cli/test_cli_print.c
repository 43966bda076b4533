/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the CLI's one writer (cli/print.c): the same calls as text and as JSON, unknown
 * values as "-" in the width of their column and as null, whole numbers as integers, a streamed
 * document the same bytes as a built one, and what each output leaves out. */
#include "print.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* One object written with every kind of call. */
static void write_sample(struct printer *p)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "name", "name %s", "mlx5_0");
	print_string_or_null(p, PRINT_ANY, "netdev", " [%-6s]", "");
	print_int(p, PRINT_ANY, "lid", " lid %-4lld|", -3);
	print_uint(p, PRINT_ANY, "data", " %llu", 18446744073709551615ULL);
	print_number_or_null(p, PRINT_ANY, "rate", " %g Gb/s", 200);
	print_number_or_null(p, PRINT_ANY, "half", " %g", 2.5);
	print_number_or_null(p, PRINT_ANY, "numa", " numa %05.1f%%|", -1);
	print_double(p, PRINT_ANY, "seconds", " %.2f s", 3);
	print_double_or_null(p, PRINT_ANY, "interval", " every %8.3f s|", -1);
	print_bool(p, PRINT_ANY, "verified", " verified %s", false);
	print_null(p, PRINT_ANY, "pci", " pci %lu");
	print_string_len(p, PRINT_ANY, "new", " new %.*s", "1\n2", 2);
	print_open_array(p, "saturated");
	print_string(p, PRINT_ANY, "ignored key", " %s", "symbol_error");
	print_string(p, PRINT_JSON, NULL, " %s", "json only");
	print_string(p, PRINT_TEXT, NULL, " %s", "text only");
	print_close(p);
	print_text(p, "\n");
	print_close(p);
}

static char *written(enum print_format format)
{
	static char text[4096];
	FILE *out = tmpfile();
	struct printer p;
	size_t len;

	assert_non_null(out);
	print_start(&p, out, format);
	write_sample(&p);
	print_end(&p);
	rewind(out);
	len = fread(text, 1, sizeof(text) - 1, out);
	text[len] = '\0';
	fclose(out);
	return text;
}

static void text_shows_unknown_values_as_a_dash_in_their_width(void **state)
{
	(void)state;
	assert_string_equal(written(PRINT_FORMAT_TEXT),
			    "name mlx5_0 [-     ] lid -3  | 18446744073709551615 200 Gb/s 2.5"
			    " numa     -%| 3.00 s every        - s| verified no pci - new 1\n"
			    " symbol_error text only\n");
}

static const char sample_json[] =
    "{\"name\":\"mlx5_0\",\"netdev\":null,\"lid\":-3,\"data\":18446744073709551615,\"rate\":200,"
    "\"half\":2.5,\"numa\":null,\"seconds\":3.0,\"interval\":null,\"verified\":false,\"pci\":null,"
    "\"new\":\"1\\n\",\"saturated\":[\"symbol_error\",\"json only\"]}\n";

static void json_has_every_value_and_whole_numbers_as_integers(void **state)
{
	(void)state;
	assert_string_equal(written(PRINT_FORMAT_JSON_LINE), sample_json);
}

static void a_streamed_document_is_the_built_one(void **state)
{
	(void)state;
	assert_string_equal(written(PRINT_FORMAT_JSON_STREAM), sample_json);
}

static void pretty_json_is_json_c_s_pretty_and_spaced(void **state)
{
	(void)state;
	assert_non_null(strstr(written(PRINT_FORMAT_JSON), "{\n  \"name\": \"mlx5_0\",\n"));
	assert_non_null(strstr(written(PRINT_FORMAT_JSON), "\"verified\": false,\n"));
}

static void a_taken_document_is_not_written(void **state)
{
	FILE *out = tmpfile();
	struct printer p;
	json_object *doc, *name;

	(void)state;
	assert_non_null(out);
	print_start(&p, out, PRINT_FORMAT_JSON);
	write_sample(&p);
	doc = print_take_document(&p);
	print_end(&p);
	assert_int_equal(ftell(out), 0);
	assert_true(json_object_object_get_ex(doc, "name", &name));
	assert_string_equal(json_object_get_string(name), "mlx5_0");
	json_object_put(doc);
	fclose(out);
}

static void text_off_leaves_out_text_only(void **state)
{
	FILE *out = tmpfile();
	struct printer p;
	char text[64] = "";

	(void)state;
	assert_non_null(out);
	print_start(&p, out, PRINT_FORMAT_TEXT);
	print_text(&p, "a");
	print_text_off(&p, true);
	print_text(&p, "b");
	print_string(&p, PRINT_ANY, "key", "%s", "c");
	print_text_off(&p, false);
	print_string(&p, PRINT_ANY, "key", "%s", "d");
	print_end(&p);
	rewind(out);
	assert_non_null(fgets(text, sizeof(text), out));
	assert_string_equal(text, "ad");
	fclose(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(text_shows_unknown_values_as_a_dash_in_their_width),
	    cmocka_unit_test(json_has_every_value_and_whole_numbers_as_integers),
	    cmocka_unit_test(a_streamed_document_is_the_built_one),
	    cmocka_unit_test(pretty_json_is_json_c_s_pretty_and_spaced),
	    cmocka_unit_test(a_taken_document_is_not_written),
	    cmocka_unit_test(text_off_leaves_out_text_only),
	};

	return cmocka_run_group_tests_name("cli_print", tests, NULL, NULL);
}
