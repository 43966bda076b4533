/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The one rule for untrusted text: printable 7-bit ASCII out, every other byte escaped. */
#include "rdmakit/text.h"

#include <stdio.h>

/* The characters one source byte becomes; returns their count. */
static size_t escape_byte(unsigned char c, char esc[5])
{
	if (c >= 0x20 && c < 0x7f) {
		esc[0] = (char)c;
		return 1;
	}
	snprintf(esc, 5, "\\x%02x", c);
	return 4;
}

size_t rk_text_clean(const char *src, size_t src_len, char *out, size_t size)
{
	size_t len = 0;

	for (size_t i = 0; i < src_len && src[i]; i++) {
		char esc[5];
		size_t n = escape_byte((unsigned char)src[i], esc);

		if (len + n + 1 > size)
			break;
		for (size_t k = 0; k < n; k++)
			out[len++] = esc[k];
	}
	out[len] = '\0';
	return len;
}
