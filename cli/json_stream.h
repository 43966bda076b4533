/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A JSON document written a piece at a time, so that a big one never sits in memory: json-c
 * writes every key and value, the stream only the braces, brackets, colons and commas. */
#ifndef RDMAKIT_CLI_JSON_STREAM_H
#define RDMAKIT_CLI_JSON_STREAM_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#define JSON_STREAM_DEPTH 8 /* objects and arrays open at once, at most */

struct json_stream {
	FILE *out;
	int depth;				/* 0: outside the document */
	bool need_comma[JSON_STREAM_DEPTH + 1]; /* something was written at this depth */
	char closing[JSON_STREAM_DEPTH + 1];	/* '}' or ']' for what is open at this depth */
};

/** Start writing to out. */
void json_stream_init(struct json_stream *stream, FILE *out);

/** Open an object: as the document, an array's item, or (key not NULL) an object's member. */
void json_stream_open_object(struct json_stream *stream, const char *key);

/** Open an array, the same way. */
void json_stream_open_array(struct json_stream *stream, const char *key);

/** Write value (key NULL in an array, else a member's key) and release it. */
void json_stream_value(struct json_stream *stream, const char *key, json_object *value);

/** Write every member of object as members of the open object, and release it. */
void json_stream_members(struct json_stream *stream, json_object *object);

/** Close the innermost open object or array (a document ends with a newline). */
void json_stream_close(struct json_stream *stream);

#endif
